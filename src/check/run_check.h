#pragma once
// The whole diagnosis: probe every layer bottom up through the host seam,
// apply the rules, and settle the verdict.

#include "host/host.h"
#include "model/report.h"
#include "probes/probe_context.h"
#include "rules/rule_set.h"

#include <functional>

namespace gd {

// What a check judges with: the reference tables its probes read from the
// start, and the rule set, asked for only once the driver's children are
// running (the built-in set reads its rules then: milliseconds that a live
// check spends waiting anyway) and never for a GPU table.
struct CheckRules {
  const ReferenceTables& tables;
  std::function<const RuleSet&()> rule_set;

  // A set already loaded whole (--rules DIR, the tests).
  static CheckRules whole(const RuleSet& set) {
    return {set.tables, [&set]() -> const RuleSet& { return set; }};
  }
};

Report run_check(Host& host, const CheckRules& rules, ProbeOptions options = {});
Report run_check(Host& host, const RuleSet& rules, ProbeOptions options = {});

}  // namespace gd
