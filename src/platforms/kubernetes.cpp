// Kubernetes: the kubelet gives every container of a pod KUBERNETES_SERVICE_HOST,
// and its cgroups sit below kubepods; the engine beneath (containerd, CRI-O)
// is the kubelet's business.
#include "platforms/container_engine.h"

namespace gd {

namespace {

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (clues.host.env("KUBERNETES_SERVICE_HOST"))
    add_marker(markers, ContainerRuntime::kubernetes, "env KUBERNETES_SERVICE_HOST", MarkerStrength::orchestrator_variable);
  if (clues.cgroup_mentions("kubepods"))
    add_marker(markers, ContainerRuntime::kubernetes, "/proc/self/cgroup mentions kubepods", MarkerStrength::cgroup);
}

}  // namespace

extern const EngineMethod kubernetes_engine{"kubernetes", detect, nullptr};

}  // namespace gd
