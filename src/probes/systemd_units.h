#pragma once
// A system unit as systemd finds it, read from files: which unit file it
// loads, whether it is masked, and whether multi-user.target (sockets.target
// for a socket) wants it: it starts at boot. nvidia-fabricmanager.service,
// nvidia-cdi-refresh.path, docker's and containerd's units are read this way.

#include "host/host.h"

#include <optional>
#include <string>
#include <string_view>

namespace gd {

// The directories systemd loads system units, their drop-ins (NAME.d) and
// their wants links from, the one that wins first (`systemd-analyze
// unit-paths` on Debian 12 without the runtime-only ones: /lib only where
// /usr is not merged, and then before /usr/lib).
inline constexpr const char* k_systemd_unit_dirs[] = {"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
                                                      "/lib/systemd/system", "/usr/lib/systemd/system"};

struct SystemdUnit {
  std::optional<std::string> path;  // the unit file it loads: the first directory's that holds one
  bool masked = false;              // a link to /dev/null comes first (`systemctl mask`): it never starts
  bool enabled = false;             // not masked, and a wants link to it exists
};

SystemdUnit find_systemd_unit(Host& host, std::string_view name);

}  // namespace gd
