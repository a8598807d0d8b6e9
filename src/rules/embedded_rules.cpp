// The built-in rule set: what compile_rules wrote at build time, read back.
// Apart from the core library, because compile_rules links the core and
// writes the data this file reads.

#include "rules/compiled_rules.h"
#include "rules/embedded_rules.h"

namespace gd {

RuleSet load_embedded_rules() {
  RuleSet set = read_compiled_rules(compiled_rule_set());
  set.tables.chips.load_products_lazily(embedded_pci_products());  // static: read in place, at first use
  return set;
}

}  // namespace gd
