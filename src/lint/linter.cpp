#include "lint/linter.h"

namespace gd {

namespace {

std::string fill(std::string text, const LintValues& values) {
  for (const auto& [key, value] : values) {
    const std::string placeholder = "{" + key + "}";
    for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size()))
      text.replace(at, placeholder.size(), value);
  }
  return text;
}

}  // namespace

void Linter::raise(const char* id, std::size_t line, const LintValues& values, std::optional<std::string> corrected) {
  const LintRule* rule = m_rules.find_lint(id);
  if (!rule) return;
  m_findings.push_back({id, rule->severity, line, fill(rule->message, values), fill(rule->fix, values), rule->source,
                        std::move(corrected)});
}

bool is_stubs_dir(std::string_view dir) { return dir.ends_with("/stubs") || contains(dir, "/stubs/"); }

}  // namespace gd
