// enroot (and pyxis, which runs it under Slurm) clears the environment, so
// ENROOT_* variables are no marker inside; the root file system it made from
// an image is: /etc/rc (the entrypoint, "# enroot-provenance: URI" since
// 4.1.2) and /etc/rc.local "sourced by /etc/rc when the container starts".
#include "platforms/container_engine.h"

#include "util/text.h"

namespace gd {

namespace {

bool has_enroot_rc(Host& host) {
  auto rc = host.read_file("/etc/rc", k_small_file);
  if (!rc) return false;
  if (rc->starts_with("# enroot-provenance:")) return true;
  auto local = host.read_file("/etc/rc.local", k_small_file);
  return local && contains(*local, "sourced by /etc/rc when the container starts");
}

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (has_enroot_rc(clues.host))
    add_marker(markers, ContainerRuntime::enroot, "/etc/rc and /etc/rc.local as enroot writes them (its entrypoint)", MarkerStrength::engine_file);
}

}  // namespace

extern const EngineMethod enroot_engine{"enroot", detect, nullptr};

}  // namespace gd
