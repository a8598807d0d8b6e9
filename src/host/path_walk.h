#pragma once
// The one path walker: resolves a path component by component the way the
// kernel does — symlinks followed (40 at most, then ELOOP), an absolute
// target restarting at "/", ".." never climbing above "/" — while every
// lookup is the caller's. That is how the same rules serve a directory on
// a Host (real_path) and a snapshot being written; RootDir resolves the same
// way inside a root, in the kernel.

#include "util/result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gd {

enum class FollowFinal { yes, no };

// One component of the walk, as the lookup sees it.
struct WalkStep {
  const std::string& logical;  // the path so far: "/usr/lib/libcuda.so.1"
  std::string_view name;       // its last component: "libcuda.so.1"
  std::size_t depth;           // components before it (0 for "/usr"), so a lookup
                               // that keeps its directories by depth need not
                               // compare whole paths
  bool is_final;               // no more components follow
};

// For a step: its symlink target, nullopt when it is not a symlink, or an
// error that ends the walk.
using LinkLookup = std::function<Result<std::optional<std::string>>(const WalkStep& step)>;

// The resolved logical path, always absolute.
Result<std::string> walk_path(std::string_view path, FollowFinal follow_final, const LinkLookup& lookup);

}  // namespace gd
