#pragma once
// A systemd unit as packages install it, read from files: where its unit
// file is, and whether multi-user.target (sockets.target for a socket) wants
// it: it starts at boot.
// nvidia-fabricmanager.service and nvidia-cdi-refresh.path are read this way.

#include "host/host.h"

#include <optional>
#include <string>
#include <string_view>

namespace gd {

struct SystemdUnit {
  std::optional<std::string> path;  // the first unit directory that holds it
  bool enabled = false;             // a multi-user.target.wants link to it exists
};

SystemdUnit find_systemd_unit(Host& host, std::string_view name);

}  // namespace gd
