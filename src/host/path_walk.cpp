#include "host/path_walk.h"

#include "util/path.h"

#include <cerrno>
#include <deque>
#include <vector>

namespace gd {

namespace {

constexpr int k_max_symlinks = 40;  // the kernel's own limit

void push_components(std::deque<std::string>& queue, std::string_view path) {
  const auto parts = path_components(path);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (*it != ".") queue.emplace_front(*it);
}

std::string join(const std::vector<std::string>& parts) {
  std::string path;
  for (const auto& part : parts) path += "/" + part;
  return path;
}

}  // namespace

Result<std::string> walk_path(std::string_view path, FollowFinal follow_final, const LinkLookup& lookup) {
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
    if (is_final && follow_final == FollowFinal::no) {
      resolved.push_back(std::move(part));
      break;
    }
    auto target = lookup(join(resolved) + "/" + part, is_final);
    if (!target) return target.error();
    if (!*target) {
      resolved.push_back(std::move(part));
      continue;
    }
    if (++symlinks > k_max_symlinks) return errno_code(ELOOP);
    if ((*target)->starts_with("/")) resolved.clear();
    push_components(pending, **target);
  }
  const std::string out = join(resolved);
  return out.empty() ? std::string("/") : out;
}

}  // namespace gd
