#pragma once
// Facts to findings: every rule about the report's subject is checked
// against its facts, and each match becomes a finding on the rule's layer.
// The engine knows no layer by name: any subject's fact document works.

#include "model/report.h"
#include "rules/rule_set.h"

namespace gd {

void apply_rules(const RuleSet& rules, Report& report);  // rules whose subject is report.subject

}  // namespace gd
