#pragma once
// Container engines as a method table, as pciutils keeps its access methods
// (lib/init.c's pci_methods[]): one file per engine says what a container it
// started has inside (a variable, a directory, a file, a cgroup name), each
// marker with how much it says, and reads the facts only that engine leaves.
// A new engine is its file (defining `extern const EngineMethod NAME_engine`),
// its place in engine_table.cpp, its name in ContainerRuntime, its rules and
// its scenarios.

#include "facts/container_facts.h"
#include "facts/probe_notes.h"
#include "host/host.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// How much a marker says, strongest first. Markers of one strength go by the
// engine table's order; the strongest marker names the engine.
enum class MarkerStrength {
  launcher_variable,      // set by the launcher in every container it starts (APPTAINER_CONTAINER)
  runtime_directory,      // a directory the runtime mounts in (/.singularity.d, /dev/.lxd-mounts)
  init_variable,          // PID 1's container= (systemd's container interface)
  orchestrator_variable,  // KUBERNETES_SERVICE_HOST: every pod's containers have it
  engine_file,            // a file the engine writes when the container starts (/run/.containerenv)
  image_file,             // a file an image keeps once built from one (/.dockerenv): a disk's own root outweighs it
  cgroup,                 // the engine's name in /proc/self/cgroup
  outer_cgroup,           // a system container's name there: application containers run inside one
  process_variable,       // this process's own container= (anyone can export it)
};

struct EngineMarker {
  ContainerRuntime engine;
  std::string evidence;
  MarkerStrength strength;
  std::optional<std::string> named{};  // container=NAME where NAME is no engine listed (escaped)
};

// Appends a marker (out of line: GCC 12 misreads an inlined move of a string
// built from a literal as out of bounds).
void add_marker(std::vector<EngineMarker>& markers, ContainerRuntime engine, std::string_view evidence, MarkerStrength strength);

// What more than one engine looks at, read once per check.
struct EngineClues {
  Host& host;
  std::optional<std::string> cgroup{};  // /proc/self/cgroup

  bool cgroup_mentions(std::string_view name) const;
};

struct EngineMethod {
  std::string_view name;
  // Appends this engine's markers, strongest first.
  void (*detect)(const EngineClues& clues, std::vector<EngineMarker>& markers);
  // The facts only this engine leaves, read where one of its markers was found; may be null.
  void (*contribute)(Host& host, Probed<ContainerFacts>& layer);
};

// Every engine, in the order that breaks ties between markers of one strength.
std::span<const EngineMethod* const> container_engines();

struct EngineDetection {
  std::vector<EngineMarker> markers;        // strongest first
  std::vector<const EngineMethod*> found;  // the engines that left a marker, in table order
};

// Asks every engine of the table.
EngineDetection detect_container_engines(Host& host);

}  // namespace gd
