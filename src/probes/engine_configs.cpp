#include "probes/engine_configs.h"

#include "host/host_paths.h"
#include "util/text.h"

#include <cerrno>

namespace gd {
namespace {

constexpr std::size_t k_max_engine_file = 1 << 20;

}  // namespace

EngineFile read_engine_file(Host& host, const std::string& path, ProbeNotes& notes) {
  auto text = host.read_file(path, k_max_engine_file + 1);
  if (!text) {
    const int error = text.error().value();
    if (error == ENOENT || error == ENOTDIR) return {.text = std::nullopt, .missing = true};
    notes.note_unreadable(path, "cannot read: " + errno_name(error));
    return {};
  }
  if (text->size() > k_max_engine_file) {
    notes.note_unreadable(path, "larger than 1 MiB: not read");
    return {};
  }
  return {.text = std::move(*text)};
}

bool engine_program_found(Host& host, const std::string& program, std::string_view search_path) {
  if (program.empty()) return false;
  if (program.front() == '/') return host.exists(program);
  if (program.find('/') != std::string::npos) return false;  // relative to a daemon's working directory: never meant
  return find_on_path(host, program, search_path).has_value();
}

EngineFacts read_engine_configs(Host& host, Probed<ContainerFacts>& notes) {
  EngineFacts facts;
  facts.docker = read_docker_engine(host, notes);
  facts.docker_rootless = read_rootless_docker(host, notes);
  facts.containerd = read_containerd_engines(host, notes);
  facts.crio = read_crio_engine(host, notes);
  facts.oci_hooks = read_oci_hooks(host, facts.crio, notes);
  facts.toolkit = read_toolkit_config(host, notes);
  // One source for the engines' facts: every file they came from, and the service PATH their programs were looked up in.
  std::string from;
  auto add = [&from](std::string_view file) { from += (from.empty() ? "" : ", ") + std::string(file); };
  if (facts.docker && facts.docker->config) add(*facts.docker->config);
  if (facts.docker && facts.docker->path) add(concat({"dockerd's programs on ", *facts.docker->path}));
  if (facts.docker_rootless) {
    if (facts.docker_rootless->config) add(*facts.docker_rootless->config);
    if (!facts.docker_rootless->config || facts.docker_rootless->path) add(facts.docker_rootless->unit);  // the unit gives its PATH
  }
  for (const auto& containerd : facts.containerd) {
    if (containerd.unit) add(*containerd.unit);
    for (const auto& file : containerd.files) add(file);
  }
  if (facts.crio)
    for (const auto& file : facts.crio->files) add(file);
  if (facts.oci_hooks)
    for (const auto& hook : facts.oci_hooks->hooks) add(hook.file);
  if (facts.toolkit) add(facts.toolkit->config);
  add(concat({"programs on ", k_service_path}));
  notes.source(&ContainerFacts::engines, from);
  return facts;
}

}  // namespace gd
