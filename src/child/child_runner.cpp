#include "child/child_runner.h"

#include "child/running_child.h"

namespace gd {

ChildAnswer run_child(const std::vector<std::string>& argv, std::chrono::milliseconds deadline, OutputKeep keep,
                      const std::optional<WaitingNote>& note, const std::function<void(int)>& started) {
  ChildAnswer answer;
  RunningChild child(argv, keep, ChildInput::none);
  if (child.start_error()) {
    answer.error = child.start_error();
    return answer;
  }
  if (started) started(child.group());
  const Waited waited = child.wait(deadline, {}, note);
  answer.output = std::move(child.output());
  answer.error_output = std::move(child.error_output());
  answer.truncated = child.truncated();
  child.end(answer, waited);
  return answer;
}

}  // namespace gd
