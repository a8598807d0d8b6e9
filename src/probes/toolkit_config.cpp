// The NVIDIA Container Toolkit's config.toml as its runtime and hook read
// it (nvidia-container-toolkit internal/config): a missing file means the
// built-in defaults; what gpudoctor reads is what decides whether a GPU
// container starts (the mode, no-cgroups, the host ldconfig).
#include "probes/engine_configs.h"

#include "formats/toml_config.h"
#include "util/enum_names.h"
#include "util/text.h"

namespace gd {
namespace {

// Where packages install it, then where the GPU Operator's toolkit container
// writes the one its runtime wrappers point XDG_CONFIG_HOME at.
constexpr const char* k_toolkit_configs[] = {
    "/etc/nvidia-container-runtime/config.toml",
    "/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml",
};
constexpr std::size_t k_max_config = 1 << 20;

ToolkitMode mode_named(std::string_view written) {
  if (written.empty()) return ToolkitMode::auto_;
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

}  // namespace

std::optional<ToolkitConfigFacts> read_toolkit_config(Host& host, ProbeNotes& notes) {
  for (const char* config : k_toolkit_configs) {
    auto text = host.read_file(config, k_max_config + 1);
    if (!text) continue;
    ToolkitConfigFacts facts{.config = config};
    if (text->size() > k_max_config) {
      notes.note_unreadable(config, "larger than 1 MiB: not read");
      return facts;
    }
    const auto document = read_toml(*text);
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
    return facts;
  }
  return std::nullopt;
}

}  // namespace gd
