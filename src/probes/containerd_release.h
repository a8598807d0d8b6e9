#pragma once
// Which containerd reads a configuration, and its release, from the
// program's Go build information: the release decides how the imports merge
// (1.x puts an import's plugin section in place of the one before it, whole;
// 2.0 and later merge them key by key).

#include "facts/engine_config_facts.h"
#include "host/host.h"

namespace gd {

// A configuration and the containerd that reads it.
struct ContainerdInstall {
  const char* config;
  const char* program;  // nullptr: "containerd" on the PATH systemd gives services
};

// containerd's own, then the Kubernetes distributions that run their own
// containerd: k3s builds it into its own program, rke2 and microk8s ship it.
inline constexpr ContainerdInstall k_containerd_installs[] = {
    {"/etc/containerd/config.toml", nullptr},
    {"/var/lib/rancher/k3s/agent/etc/containerd/config.toml", "/var/lib/rancher/k3s/data/current/bin/containerd"},
    {"/var/lib/rancher/rke2/agent/etc/containerd/config.toml", "/var/lib/rancher/rke2/bin/containerd"},
    {"/var/snap/microk8s/current/args/containerd.toml", "/snap/microk8s/current/bin/containerd"},
};

// Sets facts.program, facts.release and facts.major where the program is
// there and says what it was built from; leaves them unset otherwise.
void read_containerd_release(Host& host, const ContainerdInstall& install, ContainerdEngineFacts& facts);

}  // namespace gd
