#pragma once
// The rule set compiled at build time: what load_rule_files makes of rules/,
// as bytes (util/binary_form.h). compile_rules writes them into the binary,
// which reads them at each start instead of parsing and checking the JSON
// of rules/ again; --rules DIR still loads JSON.

#include "rules/rule_set.h"

#include <string>
#include <string_view>

namespace gd {

std::string write_compiled_rules(const RuleSet& set);
// Throws BinaryFormError on bytes it cannot read. The product table is not
// in them: the caller gives the set its text (ChipTable::load_products_lazily).
RuleSet read_compiled_rules(std::string_view bytes);

}  // namespace gd
