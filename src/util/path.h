#pragma once
// Paths as strings, the way the kernel reads them: "/"-separated, empty
// components ignored. Nothing here touches a file system; resolving
// symlinks is host/path_walk's job.

#include <string>
#include <string_view>
#include <vector>

namespace gd {

// "/usr/lib/libcuda.so.1" -> "libcuda.so.1"; a name without "/" is itself.
std::string_view base_name(std::string_view path);
// "/usr/lib/libcuda.so.1" -> "/usr/lib"; "/x" -> "/"; "x" -> "." (as dirname(1)).
std::string dir_name(std::string_view path);
// dir + "/" + name without doubling a slash: ("/", "etc") -> "/etc".
std::string join_path(std::string_view dir, std::string_view name);
// The non-empty components: "//usr/./lib/" -> {"usr", ".", "lib"}.
std::vector<std::string_view> path_components(std::string_view path);

}  // namespace gd
