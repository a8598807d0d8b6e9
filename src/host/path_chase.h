#pragma once
// Resolves a path as the checked system sees it ("/usr/lib/libcuda.so.1")
// to a path on this machine below root_dir, resolving every symlink, absolute
// or "../", inside root_dir so that it can never escape it (the idea of
// systemd's chase()).

#include "host/path_walk.h"
#include "util/result.h"

#include <string>
#include <string_view>

namespace gd {

enum class CreateDirs { no, yes };

// Fails with ELOOP after 40 symlinks and with the lstat error of a missing
// directory on the way (unless create_dirs makes it, as a snapshot being
// written does); a missing final component is returned as is.
Result<std::string> chase(const std::string& root_dir, std::string_view path, FollowFinal follow_final,
                          CreateDirs create_dirs = CreateDirs::no);

}  // namespace gd
