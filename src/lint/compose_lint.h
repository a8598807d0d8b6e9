#pragma once
// `gpudoctor lint compose.yaml`: a compose file's GPU mistakes, each with
// its line and, where one line fixes it, the corrected line. The text of
// each check lives in rules/lint/compose.json; the detection is here.

#include "lint/compose.h"
#include "lint/linter.h"

#include <string>
#include <vector>

namespace gd {

std::vector<LintFinding> lint_compose(const ComposeFile& file, const RuleSet& rules);

// The ids the detectors can raise; every one must have its text in rules/lint/.
std::vector<std::string> compose_lint_ids();

}  // namespace gd
