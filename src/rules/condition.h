#pragma once
// The small condition language of rules/ (docs/rules-format.md):
//   {"all": [c, ...]}, {"any": [c, ...]}, {"not": c}
//   {"fact": PATH, OP: OPERAND [, "as": "version"]}
// with OP one of eq ne lt le gt ge in not_in contains exists empty, and
// OPERAND a literal or {"fact": PATH}. A comparison with a missing fact is
// false (only {"exists": false} holds), so unknown evidence never fires a rule.

#include "rules/fact_view.h"
#include "util/checked.h"

#include <boost/json.hpp>

#include <optional>
#include <string>

namespace gd {

bool evaluate_condition(const boost::json::value& condition, const FactView& facts);

// A description of what is wrong with a condition, or nullopt when it is valid.
Checked<> validate_condition(const boost::json::value& condition);

}  // namespace gd
