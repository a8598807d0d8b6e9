#pragma once
// Path questions asked of a Host rather than of this machine.

#include "host/host.h"

#include <optional>
#include <string>

namespace gd {

// Like realpath(3) inside the host: every symlink on the way is followed
// (at most 40), ".." is applied after that; a missing component ends it.
std::string real_path(Host& host, const std::string& path);

// The first regular file named program in the host's PATH (the usual
// default when PATH is unset), as a shell would run it.
std::optional<std::string> find_on_path(Host& host, const std::string& program);

}  // namespace gd
