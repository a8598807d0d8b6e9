#include "host/path_chase.h"

#include "host/local_fs.h"
#include "util/text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <vector>

namespace gd {
namespace {

constexpr int k_max_symlinks = 40;  // the kernel's own limit

std::string join(const std::string& root_dir, const std::vector<std::string>& parts) {
  std::string path = root_dir;
  for (const auto& part : parts) path += "/" + part;
  return path;
}

void push_components(std::deque<std::string>& queue, std::string_view path) {
  auto parts = split(path, '/');
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (!it->empty() && *it != ".") queue.emplace_front(*it);
}

}  // namespace

Result<std::string> chase(const std::string& root_dir, std::string_view path, FollowFinal follow_final,
                          CreateDirs create_dirs) {
  std::string root = root_dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  std::vector<std::string> resolved;
  std::deque<std::string> pending;
  push_components(pending, path);
  int symlinks = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part == "..") {
      if (!resolved.empty()) resolved.pop_back();  // ".." at the root stays at the root
      continue;
    }
    const bool is_final = pending.empty();
    const std::string candidate = join(root, resolved) + "/" + part;
    struct stat info {};
    if (::lstat(candidate.c_str(), &info) != 0) {
      if (is_final && errno == ENOENT) {
        resolved.push_back(part);
        break;
      }
      if (errno == ENOENT && create_dirs == CreateDirs::yes && ::mkdir(candidate.c_str(), 0755) == 0) {
        resolved.push_back(part);
        continue;
      }
      return errno_code(errno);
    }
    if (!S_ISLNK(info.st_mode) || (is_final && follow_final == FollowFinal::no)) {
      resolved.push_back(part);
      continue;
    }
    if (++symlinks > k_max_symlinks) return errno_code(ELOOP);
    auto target = read_local_link(candidate);
    if (!target) return target.error();
    if (target->starts_with("/")) resolved.clear();
    push_components(pending, *target);
  }
  return join(root, resolved);
}

}  // namespace gd
