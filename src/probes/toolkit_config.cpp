// The NVIDIA Container Toolkit's config.toml as its runtime and hook read
// it (nvidia-container-toolkit internal/config): a missing file means the
// built-in defaults; what gpudoctor reads is what decides whether a GPU
// container starts (the mode, no-cgroups, the host ldconfig).
#include "probes/engine_configs.h"

#include "formats/cdi_spec.h"
#include "formats/toml_config.h"
#include "probes/cdi_specs.h"
#include "util/enum_names.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>
#include <cerrno>

namespace gd {
namespace {

// Where packages install it, then where the GPU Operator's toolkit container
// writes the one its runtime wrappers point XDG_CONFIG_HOME at.
constexpr const char* k_toolkit_configs[] = {
    "/etc/nvidia-container-runtime/config.toml",
    "/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml",
};

// An empty mode is no mode to the runtime either ("invalid runtime mode").
ToolkitMode mode_named(std::string_view written) {
  if (auto mode = enum_from_name<ToolkitMode>(written); mode && *mode != ToolkitMode::invalid) return *mode;
  return ToolkitMode::invalid;
}

// The toolkit runs "@PATH" on the host, first as PATH.real where that exists
// and else without .real (the normalisation of toolkit 1.15 and later).
Nullable<bool> host_ldconfig_found(Host& host, std::string_view written) {
  if (!written.starts_with("@")) return {};
  std::string_view path = written.substr(1);
  if (path.ends_with(".real")) path.remove_suffix(5);
  return host.exists(std::string(path) + ".real") || host.exists(path);
}

// In cdi mode the runtime asks the CDI cache for devices of its default
// kind, read from its spec directories: is there a spec of that kind?
// (The GPU Operator's kind is management.nvidia.com/gpu, not nvidia.com/gpu.)
// Unknown where the directories held more than a look reads (CdiSpecBudget),
// or a spec this user may not read (the runtime reads it as root) when no other is of the kind.
std::optional<bool> spec_of_kind_exists(Host& host, const std::vector<std::string>& dirs, const std::string& kind, ProbeNotes& notes) {
  CdiSpecBudget budget;
  bool unread = false;
  for (const auto& dir : dirs) {
    auto names = host.list_dir(dir);
    if (!names) continue;
    std::sort(names->begin(), names->end());
    for (const auto& name : *names) {
      if (!name.ends_with(".yaml") && !name.ends_with(".yml") && !name.ends_with(".json")) continue;
      const std::string path = join_path(dir, name);
      if (!budget.admit(path, notes)) return std::nullopt;
      auto text = host.read_file(path, k_max_cdi_spec + 1);
      if (!text) {
        unread = unread || text.error().value() != ENOENT;
        continue;
      }
      budget.spend(text->size());
      if (text->find(kind) == std::string::npos) continue;  // a spec of the kind names it
      if (cdi_spec_yaml_kind(*text) == kind) return true;                // as nvidia-ctk writes it, without loading the YAML
      if (auto spec = parse_cdi_spec(*text); spec && spec->kind == kind) return true;
    }
  }
  if (unread) return std::nullopt;
  return false;
}

void read_cdi_mode(Host& host, const TomlDocument& document, ToolkitConfigFacts& facts, ProbeNotes& notes) {
  const std::string kind = document.string({"nvidia-container-runtime", "modes", "cdi", "default-kind"}).value_or("nvidia.com/gpu");
  std::vector<std::string> dirs = {"/etc/cdi", "/var/run/cdi"};
  if (const auto* written = document.find({"nvidia-container-runtime", "modes", "cdi", "spec-dirs"}); written && written->kind == TomlValue::Kind::array)
    dirs.assign(written->strings.begin(), written->strings.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(written->strings.size(), 8)));
  facts.cdi_kind = printable(kind, 80);
  for (const auto& dir : dirs) facts.cdi_spec_dirs.push_back(printable(dir, 200));
  facts.cdi_spec_found = spec_of_kind_exists(host, dirs, kind, notes);
}

}  // namespace

std::optional<ToolkitConfigFacts> read_toolkit_config(Host& host, ProbeNotes& notes) {
  for (const char* config : k_toolkit_configs) {
    const auto file = read_engine_file(host, config, notes);
    if (file.missing) continue;
    ToolkitConfigFacts facts{.config = config};
    if (!file.text) {  // there, but not read: noted
      facts.unread = true;
      return facts;
    }
    const auto document = read_toml(*file.text);
    if (!document) {
      facts.problem = document.error();
      return facts;
    }
    if (auto mode = document->string({"nvidia-container-runtime", "mode"})) {
      facts.mode = mode_named(*mode);
      facts.mode_written = printable(*mode, 40);
    }
    facts.no_cgroups = document->boolean({"nvidia-container-cli", "no-cgroups"}).value_or(false);
    if (auto ldconfig = document->string({"nvidia-container-cli", "ldconfig"})) {
      facts.ldconfig = printable(*ldconfig, 200);
      facts.ldconfig_found = host_ldconfig_found(host, *ldconfig);
    }
    facts.skip_mode_detection = document->boolean({"nvidia-container-runtime-hook", "skip-mode-detection"}).value_or(false);
    if (facts.mode == ToolkitMode::cdi) read_cdi_mode(host, *document, facts, notes);
    return facts;
  }
  return std::nullopt;
}

}  // namespace gd
