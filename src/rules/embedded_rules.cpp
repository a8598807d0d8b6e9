// The built-in rule set: what compile_rules wrote at build time, read back.
// Apart from the core library, because compile_rules links the core and
// writes the data this file reads.

#include "rules/embedded_rules.h"

#include "rules/compiled_rules.h"

#include <mutex>

namespace gd {

namespace {

ReferenceTables embedded_tables() {
  ReferenceTables tables = read_compiled_tables(compiled_tables());
  tables.chips.load_products_lazily(embedded_pci_products());  // static: read in place, at first use
  return tables;
}

// One set for the process, filled in two steps. Reachable from a static, so
// a leak checker does not count it; freeing its thousands of strings at exit
// would be work nobody waits for.
RuleSet& process_set() {
  static RuleSet* const set = new RuleSet();
  return *set;
}

}  // namespace

RuleSet load_embedded_rules() {
  RuleSet set;
  set.tables = embedded_tables();
  read_compiled_rules(compiled_rule_set(), set);
  return set;
}

const ReferenceTables& built_in_tables() {
  static std::once_flag read;
  std::call_once(read, [] { process_set().tables = embedded_tables(); });
  return process_set().tables;
}

const RuleSet& built_in_rules() {
  static std::once_flag read;
  std::call_once(read, [] {
    built_in_tables();
    read_compiled_rules(compiled_rule_set(), process_set());
  });
  return process_set();
}

}  // namespace gd
