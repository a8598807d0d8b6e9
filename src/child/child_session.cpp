#include "child/child_session.h"

#include "child/running_child.h"

#include <string_view>
#include <utility>

namespace gd {
namespace {

// Where the first answer ends: the empty line after it. npos until it came.
std::size_t answer_end(std::string_view output) {
  if (output.starts_with('\n')) return 0;
  const auto blank = output.find("\n\n");
  return blank == std::string_view::npos ? blank : blank + 1;
}

class ProcessSession final : public ChildSession {
 public:
  ProcessSession(const std::vector<std::string>& argv, OutputKeep keep) : m_child(argv, keep, ChildInput::socket) {}

  ChildAnswer next(std::chrono::milliseconds deadline) override {
    ChildAnswer answer;
    if (m_child.start_error() || m_over) {
      answer.error = m_child.start_error().value_or("ECHILD");
      m_over = true;
      return answer;
    }
    // One that can no longer read has gone: waiting sees its exit.
    if (m_asked) (void)m_child.send("\n");
    m_asked = true;
    const Waited waited = m_child.wait(deadline, [this] { return answer_end(m_child.output()) != std::string::npos; });
    answer.truncated = std::exchange(m_child.truncated(), false);
    answer.error_output = std::exchange(m_child.error_output(), {});
    if (waited == Waited::complete) {
      const std::size_t end = answer_end(m_child.output());
      answer.output = m_child.output().substr(0, end);
      m_child.output().erase(0, end + 1);
      return answer;
    }
    // It exited or ran out of time: what it said is its last answer.
    answer.output = std::exchange(m_child.output(), {});
    m_child.end(answer, waited);
    m_over = true;
    return answer;
  }

 private:
  RunningChild m_child;
  bool m_asked = false;
  bool m_over = false;
};

}  // namespace

std::unique_ptr<ChildSession> start_child_session(const std::vector<std::string>& argv, OutputKeep keep) {
  return std::make_unique<ProcessSession>(argv, keep);
}

}  // namespace gd
