#pragma once
// Path questions asked of a Host rather than of this machine.

#include "host/host.h"

#include <optional>
#include <string>
#include <string_view>

namespace gd {

// Like realpath(3) inside the host: every symlink on the way is followed
// (at most 40), ".." is applied after that; a missing component ends it.
std::string real_path(Host& host, const std::string& path);

// The first regular file named program in the host's PATH (the usual
// default when PATH is unset), as a shell would run it.
std::optional<std::string> find_on_path(Host& host, const std::string& program);

// The PATH systemd gives a service (dockerd, containerd and the runtimes
// they start look programs up in it, whatever the user's PATH is).
inline constexpr std::string_view k_service_path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The same, in a given PATH.
std::optional<std::string> find_on_path(Host& host, const std::string& program, std::string_view search_path);

// The configuration directory of the user gpudoctor runs as, as rootless
// engines find theirs: $XDG_CONFIG_HOME, else $HOME/.config (absolute paths only).
std::optional<std::string> user_config_dir(Host& host);

}  // namespace gd
