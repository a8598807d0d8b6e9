#include "host/children_ahead.h"

#include "util/interrupt_cleanup.h"

#include <signal.h>
#include <unistd.h>

namespace gd {

ChildrenAhead::~ChildrenAhead() {
  for (auto& [key, running] : m_running)
    if (running.answer.valid()) running.answer.wait();
  for (auto& answer : m_abandoned) answer.wait();
}

void ChildrenAhead::start(const ChildRequest& request, Runner run) {
  // Set once the child runs, or once its run has ended without one.
  auto launched = std::make_shared<std::atomic<bool>>(false);
  const auto mark = [launched] {
    launched->store(true);
    launched->notify_all();
  };
  {
    std::lock_guard lock(m_mutex);
    const auto key = request.key();
    if (m_running.count(key)) return;
    auto group = std::make_shared<std::atomic<int>>(0);
    // Signals are blocked here, in the thread that starts the worker, so that
    // the worker inherits the block and the watcher alone takes SIGINT: left
    // to the child runner, the block was made in the worker only, and a signal
    // to the process killed it by default, leaving its child running.
    install_interrupt_cleanup();
    auto answer = std::async(std::launch::async, [run = std::move(run), group, mark] {
      const auto answer = run([group, mark](int started) {
        group->store(started);
        mark();
      });
      mark();  // no child could start: nothing to wait for
      return answer;
    });
    m_running.emplace(key, Running{std::move(answer), std::chrono::steady_clock::now(), request.deadline, std::move(group)});
  }
  launched->wait(false);
}

std::optional<ChildAnswer> ChildrenAhead::take(const ChildRequest& request, const std::optional<WaitingNote>& note) {
  Running running;
  {
    std::lock_guard lock(m_mutex);
    const auto found = m_running.find(request.key());
    if (found == m_running.end()) return std::nullopt;
    running = std::move(found->second);
    m_running.erase(found);
  }
  // A child's own deadline ends it; only a shorter one asked now is enforced here.
  const bool shorter = request.deadline < running.deadline;
  const auto deadline = running.started_at + (shorter ? request.deadline : running.deadline + std::chrono::seconds(5));
  bool noted = false;
  if (note && running.answer.wait_until(std::min(deadline, std::chrono::steady_clock::now() + note->after)) != std::future_status::ready) {
    const std::string line = "gpudoctor: " + note->text + "...";
    noted = ::write(note->fd, line.data(), line.size()) > 0;
  }
  const bool answered = running.answer.wait_until(deadline) == std::future_status::ready;
  if (noted) (void)!::write(note->fd, "\r\033[K", 4);
  if (answered) return running.answer.get();
  // Past the deadline this request allows (shorter than the one it was
  // started with: the driver kept another child waiting): stopped now.
  if (const int group = running.group->load(); group > 0) ::kill(-group, SIGKILL);
  std::lock_guard lock(m_mutex);
  m_abandoned.push_back(std::move(running.answer));
  ChildAnswer timed_out;
  timed_out.timed_out = true;
  return timed_out;
}

}  // namespace gd
