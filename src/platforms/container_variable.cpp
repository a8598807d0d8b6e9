// container=NAME, systemd's container interface: the manager that started
// PID 1 puts it in PID 1's environment (LXC "lxc", podman "podman",
// systemd-nspawn "systemd-nspawn"); a process's own container= is weaker,
// since anyone can export it. The name is any manager's, so this is no one
// engine: a name gpudoctor knows is that engine, any other is `other`.
#include "platforms/container_engine.h"

#include "util/text.h"

namespace gd {

namespace {

EngineMarker named_marker(const std::string& name, std::string evidence, MarkerStrength strength) {
  if (auto engine = enum_from_name<ContainerRuntime>(name); engine && *engine != ContainerRuntime::other)
    return {*engine, std::move(evidence), strength};
  return {ContainerRuntime::other, std::move(evidence), strength, name};
}

// PID 1's environment, NUL-separated.
std::optional<std::string> pid1_container(Host& host) {
  auto environ = host.read_file("/proc/1/environ", k_small_file);
  if (!environ) return std::nullopt;
  for (auto entry : split(*environ, '\0'))
    if (entry.starts_with("container=") && entry.size() > 10) return printable(entry.substr(10), 40);
  return std::nullopt;
}

void detect(const EngineClues& clues, std::vector<EngineMarker>& markers) {
  if (auto name = pid1_container(clues.host))
    markers.push_back(named_marker(*name, "PID 1's environment: container=" + *name, MarkerStrength::init_variable));
  if (auto value = clues.host.env("container"); value && !value->empty()) {
    const std::string name = printable(*value, 40);
    markers.push_back(named_marker(name, "env container=" + name, MarkerStrength::process_variable));
  }
}

}  // namespace

extern const EngineMethod container_variable_engine{"container-variable", detect, nullptr};

}  // namespace gd
