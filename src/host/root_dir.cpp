#include "host/root_dir.h"

#include "host/local_fs.h"
#include "util/path.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace gd {
namespace {

constexpr int k_max_links = 40;  // the kernel's limit too (ELOOP)

// Splits a path into its components, pushed so that the first is at the back.
void push_components(std::vector<std::string>& pending, std::string_view path) {
  const auto parts = path_components(path);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.emplace_back(*it);
}

bool only_dots(const std::vector<std::string>& pending) {
  for (const auto& part : pending)
    if (part != ".") return false;
  return true;
}

}  // namespace

long system_openat2(int dir_fd, const char* path, ::open_how* how, std::size_t size) {
  return ::syscall(SYS_openat2, dir_fd, path, how, size);
}

Result<RootDir> RootDir::open(const std::string& dir, bool dir_may_be_link, ResolveMethod method, Openat2Call openat2) {
  UniqueFd fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC | (dir_may_be_link ? 0 : O_NOFOLLOW)));
  if (!fd.valid()) return errno_code(errno == ELOOP ? ENOTDIR : errno);
  return RootDir(std::move(fd), method, openat2);
}

Result<UniqueFd> RootDir::open_at(std::string_view path, int flags, FollowFinal follow) const {
  flags |= O_CLOEXEC | (follow == FollowFinal::no ? O_NOFOLLOW : 0);
  if (m_method == ResolveMethod::automatic) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags);
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
    const std::string relative = path.empty() ? std::string(".") : std::string(path);
    // RESOLVE_IN_ROOT answers EAGAIN when any rename on the system raced its
    // ".." checks: try again, and past a few tries take the walk below.
    for (int attempt = 0; attempt < 8; ++attempt) {
      const long fd = m_openat2(m_fd.get(), relative.c_str(), &how, sizeof how);
      if (fd >= 0) return UniqueFd(static_cast<int>(fd));
      if (errno != EAGAIN && errno != EINTR) break;
    }
    // Kernels before 5.6 lack it; seccomp profiles may refuse it as EPERM.
    if (errno != ENOSYS && errno != EPERM && errno != EAGAIN && errno != EINTR) return errno_code(errno);
  }
  return walk(path, flags, follow);
}

// The same resolution by hand: one component at a time, each opened with
// O_NOFOLLOW relative to the directory descriptor before it, each symlink
// read through its own descriptor and spliced into what remains.
Result<UniqueFd> RootDir::walk(std::string_view path, int flags, FollowFinal follow) const {
  std::vector<UniqueFd> dirs;  // one per directory the walk stands in
  dirs.emplace_back(::fcntl(m_fd.get(), F_DUPFD_CLOEXEC, 0));
  if (!dirs.back().valid()) return errno_code(errno);
  std::vector<std::string> pending;
  push_components(pending, path);
  int links = 0;
  while (!pending.empty()) {
    const std::string part = std::move(pending.back());
    pending.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      if (dirs.size() > 1) dirs.pop_back();  // never above the root
      continue;
    }
    const bool last = only_dots(pending);
    UniqueFd entry(::openat(dirs.back().get(), part.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!entry.valid()) return errno_code(errno);
    struct stat info {};
    if (::fstat(entry.get(), &info) != 0) return errno_code(errno);
    if (S_ISLNK(info.st_mode) && (!last || follow == FollowFinal::yes)) {
      if (++links > k_max_links) return errno_code(ELOOP);
      std::string target(4096, '\0');
      const ssize_t size = ::readlinkat(entry.get(), "", target.data(), target.size());
      if (size < 0) return errno_code(errno);
      target.resize(static_cast<std::size_t>(size));
      if (target.starts_with("/")) dirs.resize(1);  // an absolute target restarts at the root
      push_components(pending, target);
      continue;
    }
    if (last) {
      if ((flags & O_PATH) && (flags & O_NOFOLLOW || !S_ISLNK(info.st_mode))) return entry;
      // Opened again with the real flags; O_NOFOLLOW refuses a symlink swapped in meanwhile.
      UniqueFd fd(::openat(dirs.back().get(), part.c_str(), flags | O_NOFOLLOW));
      if (!fd.valid()) return errno_code(errno);
      return fd;
    }
    if (!S_ISDIR(info.st_mode)) return errno_code(ENOTDIR);
    dirs.push_back(std::move(entry));
  }
  UniqueFd fd(::openat(dirs.back().get(), ".", flags & ~O_NOFOLLOW));
  if (!fd.valid()) return errno_code(errno);
  return fd;
}

Result<UniqueFd> RootDir::open_for_reading(std::string_view path) const {
  return open_at(path, O_RDONLY | O_NONBLOCK | O_NOCTTY, FollowFinal::yes);
}

Result<UniqueFd> RootDir::open_regular(std::string_view path) const {
  auto fd = open_for_reading(path);
  if (!fd) return fd.error();
  return check_regular(std::move(*fd));
}

Result<std::string> RootDir::read_file(std::string_view path, std::size_t max_bytes) const {
  auto fd = open_for_reading(path);
  if (!fd) return fd.error();
  return read_fd(std::move(*fd), max_bytes);  // which refuses all but a regular file, as open_regular does
}

Result<std::vector<std::string>> RootDir::list_dir(std::string_view path) const {
  auto fd = open_at(path, O_RDONLY | O_DIRECTORY, FollowFinal::yes);
  if (!fd) return fd.error();
  return list_fd_dir(std::move(*fd));
}

Result<std::string> RootDir::read_link(std::string_view path) const {
  auto fd = open_at(path, O_PATH, FollowFinal::no);
  if (!fd) return fd.error();
  std::string target(4096, '\0');
  const ssize_t size = ::readlinkat(fd->get(), "", target.data(), target.size());
  if (size < 0) return errno_code(errno == ENOENT ? EINVAL : errno);  // not a symlink
  target.resize(static_cast<std::size_t>(size));
  return target;
}

Result<FileStat> RootDir::stat(std::string_view path) const {
  auto fd = open_at(path, O_PATH, FollowFinal::yes);
  if (!fd) return fd.error();
  return stat_fd(fd->get());
}

}  // namespace gd
