#pragma once
// Facts to findings: every rule is checked against the report's facts, and
// each match becomes a finding on the rule's layer.

#include "model/report.h"
#include "rules/rule_set.h"

namespace gd {

void apply_rules(const RuleSet& rules, Report& report);

}  // namespace gd
