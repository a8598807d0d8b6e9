#pragma once
// The one way gpudoctor runs another program: no shell, stdin closed, output
// capped, and a deadline after which the whole process group is killed.

#include "host/host.h"

#include <chrono>
#include <string>
#include <vector>

namespace gd {

inline constexpr std::size_t k_max_command_output = 1 << 20;

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

}  // namespace gd
