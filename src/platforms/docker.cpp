// Docker creates /.dockerenv in every container, but it is only a file: an
// image built FROM a Docker image keeps it, so a VM or host booted from one
// has it too (container_probe weighs it against a disk's own root). Its
// cgroups are named docker-<id>.scope or /docker/<id>.
#include "platforms/container_engine.h"

namespace gd {

namespace {

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (clues.host.exists("/.dockerenv")) add_marker(markers, ContainerRuntime::docker, "/.dockerenv", MarkerStrength::image_file);
  if (clues.cgroup_mentions("docker"))
    add_marker(markers, ContainerRuntime::docker, "/proc/self/cgroup mentions docker", MarkerStrength::cgroup);
}

}  // namespace

extern const EngineMethod docker_engine{"docker", detect, nullptr};

}  // namespace gd
