#pragma once
// Path questions asked of a Host rather than of this machine.

#include "host/host.h"

#include <string>

namespace gd {

// Like realpath(3) inside the host: every symlink on the way is followed
// (at most 40), ".." is applied after that; a missing component ends it.
std::string real_path(Host& host, const std::string& path);

}  // namespace gd
