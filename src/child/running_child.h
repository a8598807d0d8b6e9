#pragma once
// One started child, as run_child and a child session both run it: argv
// only, in its own process group, stdin from /dev/null or a socket of ours,
// stdout and stderr read through capped pipes, its exit seen through a
// pidfd. Destroying it kills its group and reaps it; once no other child is
// in flight, whatever it left behind goes too (child_containment.h).
// Internal to child/: the rest of gpudoctor asks through child_runner.h.

#include "child/child_evidence.h"
#include "child/child_runner.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

enum class ChildInput { none, socket };
enum class Waited { complete, exited, timed_out };

class RunningChild {
 public:
  RunningChild(const std::vector<std::string>& argv, OutputKeep keep, ChildInput input);
  ~RunningChild();
  RunningChild(const RunningChild&) = delete;
  RunningChild& operator=(const RunningChild&) = delete;

  // Why it could not be started ("ENOENT", ...); nothing else works then.
  const std::optional<std::string>& start_error() const;
  int group() const;
  // Reads until complete() says what was read is a whole answer, the child
  // has exited (and its pipes are drained), or the deadline passed.
  Waited wait(std::chrono::milliseconds deadline, const std::function<bool()>& complete = {},
              const std::optional<WaitingNote>& note = std::nullopt);
  // What it wrote so far; the caller may take from the front.
  std::string& output();
  std::string& error_output();
  bool& truncated();
  // Writes to its stdin (ChildInput::socket); false once it cannot be read.
  bool send(std::string_view text);
  // Kills its group and reaps it: the exit status or signal of a child that
  // exited, timed_out for one stopped at a deadline.
  void end(ChildAnswer& answer, Waited waited);

 private:
  struct State;
  std::unique_ptr<State> m_state;
  std::optional<std::string> m_start_error;
};

}  // namespace gd
