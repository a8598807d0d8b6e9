#pragma once
// check_gpu_variable's body (a template: each file kind spells its own corrected line).

#include "util/text.h"

namespace gd {

template <class Spell>
void check_gpu_variable(Linter& lint, const VariableRuleIds& ids, const std::string& key, const std::string& value,
                        std::size_t line, Spell corrected) {
  if (key == "LD_LIBRARY_PATH") {
    std::string kept, stubs;
    for (auto dir : split(value, ':')) {
      if (is_stubs_dir(dir)) stubs = std::string(dir);
      else kept += (kept.empty() ? "" : ":") + std::string(dir);
    }
    if (!stubs.empty()) lint.raise(ids.stubs_on_loader_path, line, {{"value", printable(stubs, 120)}}, corrected(key, kept));
  } else if (key == "NVIDIA_DRIVER_CAPABILITIES") {
    const auto lower = to_lower(value);
    if (!contains(lower, "compute") && !contains(lower, "all"))
      lint.raise(ids.capabilities_without_compute, line, {{"value", printable(value, 80)}}, corrected(key, "compute,utility"));
  } else if (key == "NVIDIA_VISIBLE_DEVICES") {
    const auto lower = to_lower(value);
    if (lower == "void" || lower == "none" || lower.empty())
      lint.raise(ids.visible_devices_none, line, {{"value", printable(value.empty() ? "\"\"" : value, 40)}});
  }
}

}  // namespace gd
