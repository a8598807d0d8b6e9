#pragma once
// What every lint check shares: a finding (rule id, line, text from
// rules/lint/ with its {placeholders} filled, a corrected line), and the
// checks of the container toolkit's variables, which a Dockerfile's ENV and
// a compose file's environment both set.

#include "rules/rule_set.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct LintFinding {
  std::string rule;
  Severity severity = Severity::warn;
  std::size_t line = 0;
  std::string message, fix, source;
  std::optional<std::string> corrected;  // the line as it should read, where one line fixes it
};

using LintValues = std::map<std::string, std::string>;

class Linter {
 public:
  explicit Linter(const RuleSet& rules) : m_rules(rules) {}
  // A rule missing from the rule set (--rules without it) is a check turned off.
  void raise(const char* id, std::size_t line, const LintValues& values, std::optional<std::string> corrected = {});
  std::vector<LintFinding> take() { return std::move(m_findings); }
  const RuleSet& rules() const { return m_rules; }

 private:
  const RuleSet& m_rules;
  std::vector<LintFinding> m_findings;
};

// The rule ids a file kind raises for the toolkit's variables.
struct VariableRuleIds {
  const char* stubs_on_loader_path;
  const char* capabilities_without_compute;
  const char* visible_devices_none;
};

// One variable as the file sets it; corrected(key, value) spells the line
// that sets it right in that file's syntax ("ENV K=V", "- K=V", "K: V").
using SpellVariable = std::function<std::string(const std::string& key, const std::string& value)>;
void check_gpu_variable(Linter& lint, const VariableRuleIds& ids, const std::string& key, const std::string& value,
                        std::size_t line, const SpellVariable& corrected);

bool is_stubs_dir(std::string_view dir);

}  // namespace gd
