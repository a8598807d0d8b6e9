// containerd started alone (ctr, nerdctl) leaves no file; its cgroups name it.
#include "platforms/container_engine.h"

namespace gd {

namespace {

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (clues.cgroup_mentions("containerd"))
    add_marker(markers, ContainerRuntime::containerd, "/proc/self/cgroup mentions containerd", MarkerStrength::cgroup);
}

}  // namespace

extern const EngineMethod containerd_engine{"containerd", detect, nullptr};

}  // namespace gd
