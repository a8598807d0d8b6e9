#pragma once
// The rules of rules/ as the binary carries them, written at build time by
// compile_rules (src/rules/compile_rules_main.cpp).

#include <string_view>

namespace gd {

std::string_view compiled_rule_set();      // rules/compiled_rules.h reads it
std::string_view embedded_pci_products();  // rules/tables/pci-products.tsv, as it is

}  // namespace gd
