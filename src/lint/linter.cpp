#include "lint/linter.h"

#include "util/text.h"

namespace gd {

namespace {

std::string fill(std::string text, const LintValues& values) {
  for (const auto& [key, value] : values) text = replace_all(std::move(text), "{" + key + "}", value);
  return text;
}

}  // namespace

void Linter::raise(const char* id, std::size_t line, const LintValues& values, std::optional<std::string> corrected) {
  const LintRule* rule = m_rules.find_lint(id);
  if (!rule) return;
  m_findings.push_back({id, rule->severity, line, fill(rule->message, values), fill(rule->fix, values), fill(rule->source, values),
                        std::move(corrected)});
}

bool is_stubs_dir(std::string_view dir) { return dir.ends_with("/stubs") || contains(dir, "/stubs/"); }

void check_gpu_variable(Linter& lint, const VariableRuleIds& ids, const std::string& key, const std::string& value,
                        std::size_t line, const SpellVariable& corrected) {
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
