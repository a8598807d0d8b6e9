// podman writes /run/.containerenv into every container (rootless=1 when
// started rootless) and names its cgroups libpod-<id>.
#include "platforms/container_engine.h"

#include "util/text.h"

namespace gd {

namespace {

constexpr const char* k_containerenv = "/run/.containerenv";

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (clues.host.exists(k_containerenv)) add_marker(markers, ContainerRuntime::podman, k_containerenv, MarkerStrength::engine_file);
  if (clues.cgroup_mentions("libpod"))
    add_marker(markers, ContainerRuntime::podman, "/proc/self/cgroup mentions libpod", MarkerStrength::cgroup);
}

void read_rootless(Host& host, Probed<ContainerFacts>& layer) {
  auto env = host.read_file(k_containerenv, k_small_file);
  if (!env) return;
  bool rootless = false;
  for (auto line : lines(*env)) rootless = rootless || trim(line) == "rootless=1";
  layer.facts.rootless = rootless;
  layer.source(&ContainerFacts::rootless, k_containerenv);
}

}  // namespace

extern const EngineMethod podman_engine{"podman", detect, read_rootless};

}  // namespace gd
