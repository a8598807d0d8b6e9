#pragma once
// The rule set compiled at build time: what load_rule_files makes of rules/,
// as bytes (util/binary_form.h). compile_rules writes them into the binary,
// which reads them instead of parsing and checking the JSON of rules/ again;
// --rules DIR still loads JSON.
//
// Two parts, so that a check reads the reference tables its probes need at
// once and the rules only when it judges, while the driver's children run
// (a `gpus` table never reads them).

#include "rules/rule_set.h"

#include <string>
#include <string_view>

namespace gd {

struct CompiledRules {
  std::string tables;  // set.tables
  std::string rules;   // everything else: rules, signatures, lint checks, outcomes
};
CompiledRules write_compiled_rules(const RuleSet& set);

// Both throw BinaryFormError on bytes they cannot read. The product table is
// not in them: the caller gives the tables its text (ChipTable::load_products_lazily).
ReferenceTables read_compiled_tables(std::string_view bytes);
// Fills every part of `set` but its tables, which it leaves as they are.
void read_compiled_rules(std::string_view bytes, RuleSet& set);

}  // namespace gd
