#include "snapshot/write_root.h"

#include "util/path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>
#include <vector>

namespace gd {
Result<WriteRoot> WriteRoot::open(const std::string& dir) {
  UniqueFd fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.valid()) return errno_code(errno == ELOOP ? ENOTDIR : errno);
  return WriteRoot(std::move(fd));
}

Result<UniqueFd> WriteRoot::parent_of(std::string_view path, bool create, std::string& name) {
  const auto parts = path_components(path);
  for (const auto part : parts)
    if (part == "." || part == "..") return errno_code(EINVAL);  // logical paths come resolved
  if (parts.empty()) return errno_code(EINVAL);
  UniqueFd dir(::fcntl(m_fd.get(), F_DUPFD_CLOEXEC, 0));
  if (!dir.valid()) return errno_code(errno);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const std::string part(parts[i]);
    if (create) ::mkdirat(dir.get(), part.c_str(), 0755);  // EEXIST is fine; what is there is checked next
    UniqueFd next(::openat(dir.get(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) return errno_code(errno);  // ELOOP/ENOTDIR: a symlink or a file stands there
    dir = std::move(next);
  }
  name = std::string(parts.back());
  return dir;
}

bool WriteRoot::make_dirs(std::string_view path) {
  std::string name;
  auto parent = parent_of(path, true, name);
  if (!parent) return false;
  ::mkdirat(parent->get(), name.c_str(), 0755);
  struct stat info {};
  return ::fstatat(parent->get(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode);
}

bool WriteRoot::write_file(std::string_view path, std::string_view content, unsigned mode) {
  std::string name;
  auto parent = parent_of(path, true, name);
  if (!parent) return false;
  UniqueFd fd(::openat(parent->get(), name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode));
  if (!fd.valid()) return false;
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd.get(), content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  ::fchmod(fd.get(), mode);
  return written == content.size();
}

bool WriteRoot::remove_file(std::string_view path) {
  std::string name;
  auto parent = parent_of(path, false, name);
  return parent && ::unlinkat(parent->get(), name.c_str(), 0) == 0;
}

bool WriteRoot::make_link(std::string_view path, std::string_view target) {
  std::string name;
  auto parent = parent_of(path, true, name);
  if (!parent) return false;
  const std::string stored = contained_link_target(path, target);
  return ::symlinkat(stored.c_str(), parent->get(), name.c_str()) == 0 || errno == EEXIST;
}

std::optional<std::uint64_t> WriteRoot::regular_size(std::string_view path) {
  std::string name;
  auto parent = parent_of(path, false, name);
  if (!parent) return std::nullopt;
  struct stat info {};
  const bool ok = ::fstatat(parent->get(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode);
  if (!ok) return std::nullopt;
  return static_cast<std::uint64_t>(info.st_size);
}

bool WriteRoot::exists(std::string_view path) {
  std::string name;
  auto parent = parent_of(path, false, name);
  if (!parent) return false;
  struct stat info {};
  return ::fstatat(parent->get(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0;
}

std::string contained_link_target(std::string_view link_path, std::string_view target) {
  const auto link_parts = path_components(link_path);
  const std::size_t depth = link_parts.empty() ? 0 : link_parts.size() - 1;  // directories above the link
  // Does the target, taken from the link's directory, ever climb above the root?
  const bool absolute = target.starts_with("/");
  long level = absolute ? 0 : static_cast<long>(depth);
  bool climbs_out = false;
  for (const auto part : path_components(target)) {
    if (part == "..") climbs_out = climbs_out || --level < 0;
    else if (part != ".") ++level;
  }
  if (!absolute && !climbs_out) return std::string(target);
  std::string up;
  for (std::size_t i = 0; i < depth; ++i) up += "../";
  if (absolute && !climbs_out) {
    // The same path, reached from the link's directory: exact, symlinks on the way included.
    std::string out = up + std::string(target.substr(target.find_first_not_of('/') == std::string_view::npos
                                                          ? target.size()
                                                          : target.find_first_not_of('/')));
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    return out.empty() ? "." : out;
  }
  // Normalised from the root, ".." stopping there, then made relative.
  std::vector<std::string_view> resolved;
  if (!absolute)
    for (std::size_t i = 0; i < depth; ++i) resolved.push_back(link_parts[i]);
  for (const auto part : path_components(target)) {
    if (part == "..") {
      if (!resolved.empty()) resolved.pop_back();
    } else if (part != ".") {
      resolved.push_back(part);
    }
  }
  std::string out = up;
  for (const auto part : resolved) out += std::string(part) + "/";
  if (out.empty()) return ".";
  out.pop_back();
  return out;
}

}  // namespace gd
