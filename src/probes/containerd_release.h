#pragma once
// Which containerd reads a configuration, and its release, from the
// program's Go build information: the release decides how the imports merge
// (1.x puts an import's plugin section in place of the one before it, whole;
// 2.0 and later merge them key by key).

#include "facts/engine_config_facts.h"
#include "host/host.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

// A configuration and the containerd that reads it.
struct ContainerdInstall {
  std::string config;
  std::optional<std::string> program;      // none: "containerd" on search_path
  std::optional<std::string> search_path;  // the PATH its shims look for a runtime's program on; none where not known
  std::optional<std::string> unit;         // the unit file whose command line gave the three
  // Its socket where the command line sets it (--address, -a); else the
  // files' [grpc] address, else containerd's default.
  std::optional<std::string> address{};
};

// containerd's own as containerd.service starts it (its --config, its
// program and the PATH it gives; /etc/containerd/config.toml by default),
// then the Kubernetes distributions that run their own containerd: k3s
// builds it into its own program, rke2 and microk8s ship it; each starts it
// with a PATH of its own.
std::vector<ContainerdInstall> containerd_installs(Host& host);

// Sets facts.program, facts.release and facts.major where the program is
// there and says what it was built from; leaves them unset otherwise.
void read_containerd_release(Host& host, const ContainerdInstall& install, ContainerdEngineFacts& facts);

}  // namespace gd
