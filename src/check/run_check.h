#pragma once
// The whole diagnosis: probe every layer bottom up through the host seam,
// apply the rules, and settle the verdict.

#include "host/host.h"
#include "model/report.h"
#include "probes/probe_context.h"
#include "rules/rule_set.h"

namespace gd {

Report run_check(Host& host, const RuleSet& rules, ProbeOptions options = {});

}  // namespace gd
