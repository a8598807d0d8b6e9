#include "host/path_walk.h"

#include "util/path.h"

#include <cerrno>
#include <deque>
#include <vector>

namespace gd {

namespace {

constexpr int k_max_symlinks = 40;  // the kernel's own limit
// A path resolved past PATH_MAX is refused (ENAMETOOLONG): no real tree has
// one, and a hostile archive (links into a tree thousands of directories
// deep) would otherwise make every lookup long.
constexpr std::size_t k_max_resolved = 4096;

void push_components(std::deque<std::string>& queue, std::string_view path) {
  const auto parts = path_components(path);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (*it != ".") queue.emplace_front(*it);
}

}  // namespace

Result<std::string> walk_path(std::string_view path, FollowFinal follow_final, const LinkLookup& lookup) {
  // The resolved prefix is kept joined ("/a/b"), with where each component
  // starts, so that a step costs its own length, not the whole path's.
  std::string resolved;
  std::vector<std::size_t> starts;
  std::deque<std::string> pending;
  push_components(pending, path);
  int symlinks = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part == "..") {
      if (!starts.empty()) {  // ".." at the root stays at the root
        resolved.resize(starts.back());
        starts.pop_back();
      }
      continue;
    }
    if (resolved.size() + 1 + part.size() > k_max_resolved) return errno_code(ENAMETOOLONG);
    const std::size_t start = resolved.size();
    resolved += "/" + part;
    const bool is_final = pending.empty();
    if (is_final && follow_final == FollowFinal::no) {
      starts.push_back(start);
      break;
    }
    auto target = lookup(WalkStep{resolved, std::string_view(resolved).substr(start + 1), starts.size(), is_final});
    if (!target) return target.error();
    if (!*target) {
      starts.push_back(start);
      continue;
    }
    resolved.resize(start);
    if (++symlinks > k_max_symlinks) return errno_code(ELOOP);
    if ((*target)->starts_with("/")) {
      resolved.clear();
      starts.clear();
    }
    push_components(pending, **target);
  }
  return resolved.empty() ? std::string("/") : resolved;
}

}  // namespace gd
