#include "platforms/container_engine.h"

#include "util/text.h"

#include <algorithm>

namespace gd {

// One file each; an `extern const` definition there is visible here.
extern const EngineMethod apptainer_engine, lxc_engine, container_variable_engine, kubernetes_engine, podman_engine,
    enroot_engine, docker_engine, containerd_engine;

namespace {

// Ties between markers of one strength go by this order. Apptainer and the
// LXC family come first: they share much of the host (its /dev, its cgroup
// names) and would otherwise look like something else; Kubernetes and podman
// come before Docker, whose cgroup names they can share.
constexpr const EngineMethod* k_engines[] = {
    &apptainer_engine, &lxc_engine,    &container_variable_engine, &kubernetes_engine,
    &podman_engine,    &enroot_engine, &docker_engine,             &containerd_engine,
};

}  // namespace

void add_marker(std::vector<EngineMarker>& markers, ContainerRuntime engine, std::string_view evidence, MarkerStrength strength) {
  markers.push_back({engine, std::string(evidence), strength});
}

bool EngineClues::cgroup_mentions(std::string_view name) const { return cgroup && contains(*cgroup, name); }

std::span<const EngineMethod* const> container_engines() { return k_engines; }

EngineDetection detect_container_engines(Host& host) {
  EngineClues clues{host};
  if (auto cgroup = host.read_file("/proc/self/cgroup", k_small_file)) clues.cgroup = std::move(*cgroup);
  EngineDetection detection;
  for (const EngineMethod* engine : k_engines) {
    const auto before = detection.markers.size();
    engine->detect(clues, detection.markers);
    if (detection.markers.size() > before) detection.found.push_back(engine);
  }
  std::stable_sort(detection.markers.begin(), detection.markers.end(),
                   [](const EngineMarker& a, const EngineMarker& b) { return a.strength < b.strength; });
  return detection;
}

}  // namespace gd
