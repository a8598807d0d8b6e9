// LXD, Incus and LXC: system containers. LXD and Incus mount their device
// directory at /dev/.lxd-mounts (/dev/.incus-mounts), LXC its own at /dev/.lxc.
// Their cgroup name is the outer one: Docker or podman may run inside.
#include "platforms/container_engine.h"

namespace gd {

namespace {

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (clues.host.exists("/dev/.lxd-mounts")) add_marker(markers, ContainerRuntime::lxd, "/dev/.lxd-mounts", MarkerStrength::runtime_directory);
  if (clues.host.exists("/dev/.incus-mounts"))
    add_marker(markers, ContainerRuntime::incus, "/dev/.incus-mounts", MarkerStrength::runtime_directory);
  if (clues.host.exists("/dev/.lxc")) add_marker(markers, ContainerRuntime::lxc, "/dev/.lxc", MarkerStrength::runtime_directory);
  if (clues.cgroup_mentions("lxc"))
    add_marker(markers, ContainerRuntime::lxc, "/proc/self/cgroup mentions lxc", MarkerStrength::outer_cgroup);
}

}  // namespace

extern const EngineMethod lxc_engine{"lxc", detect, nullptr};

}  // namespace gd
