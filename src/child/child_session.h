#pragma once
// A child kept running between answers (see ChildSession): it answers once
// when started and again for each line it reads on stdin, each answer ended
// by an empty line on stdout, until its stdin closes. Started, deadlined
// and contained as run_child starts any child.

#include "child/child_evidence.h"

#include <memory>
#include <string>
#include <vector>

namespace gd {

std::unique_ptr<ChildSession> start_child_session(const std::vector<std::string>& argv, OutputKeep keep);

}  // namespace gd
