#pragma once
// The one way gpudoctor runs a child process: argv only, no shell, stdin
// from /dev/null (a closed fd 0 would be taken by the child's first open),
// output capped (the start kept, or the end for a log), the answer complete
// when the child exits, and a deadline after which the whole process group
// is killed; nothing the child started outlives it (child_containment.h).
// Device opens run through it too, as `gpudoctor __child ...`.

#include "child/child_evidence.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// A line shown while a slow child is waited on (an interactive terminal's
// stderr: the caller decides), and erased when it answers.
struct WaitingNote {
  std::string text;  // "waiting for nvidia-smi"
  int fd = 2;
  std::chrono::milliseconds after{1000};
};

// started, when given, learns the child's process group once it runs (to stop it early).
// Safe to call from several threads at once.
ChildAnswer run_child(const std::vector<std::string>& argv, std::chrono::milliseconds deadline,
                      OutputKeep keep = OutputKeep::head, const std::optional<WaitingNote>& note = std::nullopt,
                      const std::function<void(int)>& started = {});

}  // namespace gd
