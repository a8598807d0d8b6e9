#pragma once
// `gpudoctor lint Dockerfile`: the image recipe's own mistakes, caught
// before anything is built or run (docker build has no GPU). Each check
// has an id whose text (message, fix, source) lives in rules/lint/ with
// the rest of the rule set; the detection is here.

#include "lint/dockerfile.h"
#include "lint/linter.h"

#include <string>
#include <vector>

namespace gd {


std::vector<LintFinding> lint_dockerfile(const Dockerfile& file, const RuleSet& rules);

// The ids the detectors above can raise; every one must have its text in rules/lint/.
std::vector<std::string> dockerfile_lint_ids();

}  // namespace gd
