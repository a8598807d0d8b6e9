#pragma once
// What a child started as `gpudoctor __child KIND ARGS...` does. Both the
// gpudoctor binary and the test binaries route argv[1] == "__child" here, so
// the live host can re-execute whichever program it runs in.

#include <string>
#include <vector>

namespace gd {

inline constexpr const char* k_child_command = "__child";

// args: KIND ARGS...; prints the answer on stdout; returns the exit status.
int child_main(const std::vector<std::string>& args);

}  // namespace gd
