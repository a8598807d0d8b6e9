#pragma once

#include "cli/options.h"
#include "rules/rule_set.h"

#include <string>

namespace gd {

// Each returns the process exit status.
int run_check_command(const Options& options);
int run_snapshot_command(const Options& options);
int run_gpus_command(const Options& options);

// Flushes standard output; throws OutputError when the answer could not be
// written (a full disk, a closed pipe where SIGPIPE is ignored).
void check_output_written();
int run_diff_command(const Options& options);
int run_lint_command(const Options& options);
int run_rules_command(const Options& options);
int run_explain_command(const Options& options);
int run_resolve_command(const Options& options);

std::string rules_markdown(const RuleSet& rules);

}  // namespace gd
