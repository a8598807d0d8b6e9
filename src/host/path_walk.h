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

// For a logical path ("/usr/lib/libcuda.so.1"): its symlink target, nullopt
// when it is not a symlink, or an error that ends the walk. is_final says
// whether more components follow.
using LinkLookup = std::function<Result<std::optional<std::string>>(const std::string& logical, bool is_final)>;

// The resolved logical path, always absolute.
Result<std::string> walk_path(std::string_view path, FollowFinal follow_final, const LinkLookup& lookup);

}  // namespace gd
