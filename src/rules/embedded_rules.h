#pragma once
// The rules of rules/ as the binary carries them, written at build time by
// compile_rules (src/rules/compile_rules_main.cpp).

#include "rules/rule_set.h"

#include <string_view>

namespace gd {

std::string_view compiled_tables();        // rules/compiled_rules.h reads them
std::string_view compiled_rule_set();      // the rest of the set
std::string_view embedded_pci_products();  // rules/tables/pci-products.tsv, as it is

// The built-in set, read once per process and never freed, in two steps:
// the tables at the first call of either, the rest of the set at the first
// call of built_in_rules (whose tables are built_in_tables()). Safe to call
// from several threads.
const ReferenceTables& built_in_tables();
const RuleSet& built_in_rules();

}  // namespace gd
