// Apptainer and Singularity, its predecessor: the launcher exports
// APPTAINER_CONTAINER (SINGULARITY_CONTAINER) into every container and mounts
// /.singularity.d; --nv binds the host's driver libraries (nvliblist.conf
// names them) into /.singularity.d/libs, which the image's 99-base.sh puts on
// LD_LIBRARY_PATH.
#include "platforms/container_engine.h"

#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

constexpr const char* k_libs = "/.singularity.d/libs";

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (clues.host.env("APPTAINER_CONTAINER"))
    add_marker(markers, ContainerRuntime::apptainer, "env APPTAINER_CONTAINER", MarkerStrength::launcher_variable);
  if (clues.host.env("SINGULARITY_CONTAINER"))
    add_marker(markers, ContainerRuntime::singularity, "env SINGULARITY_CONTAINER", MarkerStrength::launcher_variable);
  if (clues.host.exists("/.singularity.d"))
    add_marker(markers, ContainerRuntime::apptainer, "/.singularity.d", MarkerStrength::runtime_directory);
}

void read_bound_libraries(Host& host, Probed<ContainerFacts>& layer) {
  std::vector<std::string> names;
  if (auto entries = host.list_dir(k_libs))
    for (const auto& name : *entries)
      if (names.size() < 64) names.push_back(printable(name, 80));
  std::sort(names.begin(), names.end());
  layer.facts.apptainer_libs = std::move(names);
  bool on_path = false;
  if (auto path = host.env("LD_LIBRARY_PATH"))
    for (auto entry : split(*path, ':')) on_path = on_path || trim(entry) == k_libs || trim(entry) == "/.singularity.d/libs/";
  layer.facts.apptainer_libs_on_path = on_path;
  layer.source(&ContainerFacts::apptainer_libs, k_libs);
  layer.source(&ContainerFacts::apptainer_libs_on_path, "env LD_LIBRARY_PATH");
}

}  // namespace

extern const EngineMethod apptainer_engine{"apptainer", detect, read_bound_libraries};

}  // namespace gd
