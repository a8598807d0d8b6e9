#pragma once
// Children asked ahead: what waits on the driver (nvidia-smi, the driver
// probe) starts as soon as the check knows it will ask, on a thread of its
// own, and runs beside the file reads; the check takes the answer when it
// gets there, in its own order, so what is recorded and reported is the same.

#include "child/child_evidence.h"
#include "child/child_runner.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gd {

class ChildrenAhead {
 public:
  // How a child is run: run(started) with started told its process group.
  using Runner = std::function<ChildAnswer(const std::function<void(int)>& started)>;

  ChildrenAhead() = default;
  ChildrenAhead(const ChildrenAhead&) = delete;
  ChildrenAhead& operator=(const ChildrenAhead&) = delete;
  ~ChildrenAhead();  // waits for every child still running (each has its deadline)

  // Starts answering request, unless it is already under way, and returns
  // once its child runs (or could not start): children start in the order
  // they are asked, the slowest first, not in the order their threads happen
  // to be scheduled.
  void start(const ChildRequest& request, Runner run);

  // The answer to request if it was started ahead, waited for until the
  // request's own deadline counted from when it started: a child that
  // outlives it is stopped and answers timed out. The note is shown as
  // run_child shows it while the wait is long.
  std::optional<ChildAnswer> take(const ChildRequest& request, const std::optional<WaitingNote>& note);

 private:
  struct Running {
    std::future<ChildAnswer> answer;
    std::chrono::steady_clock::time_point started_at;
    std::chrono::milliseconds deadline;  // the one it was started with
    std::shared_ptr<std::atomic<int>> group;  // 0 until the child runs
  };
  std::mutex m_mutex;
  std::map<std::string, Running> m_running;
  std::vector<std::future<ChildAnswer>> m_abandoned;  // stopped early: joined on destruction
};

}  // namespace gd
