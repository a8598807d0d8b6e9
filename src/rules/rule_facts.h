#pragma once
// Rules checked against the facts they address (model/fact_schema.h): every
// path in a condition, for_each, evidence and message placeholder must name
// a fact of the rule's subject, and every literal compared with a closed set
// must be one of its values.

#include "model/fact_schema.h"
#include "rules/rule_set.h"
#include "util/checked.h"

#include <optional>
#include <string>

namespace gd {

// The subject's facts and what the run observes of each outcome the rule set
// names ("outcome.cuda": works, fails or unknown), which rules may address too.
FactSchema with_outcomes(FactSchema schema, const RuleSet& rules);

// The first problem with one rule's facts (schema: as with_outcomes gives it).
Checked<> check_rule_facts(const Rule& rule, const FactSchema& schema);

// Throws RuleError ("FILE: rule \"ID\": problem") for the first rule or
// outcome with a problem.
void check_rules_against(const RuleSet& rules, const FactSchema& schema);

}  // namespace gd
