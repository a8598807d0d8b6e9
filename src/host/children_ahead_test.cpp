#include "host/children_ahead.h"

#include "test_support/processes.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

using namespace std::chrono_literals;

TEST_CASE("children started ahead take a signal like any other: the child is killed and gpudoctor dies of the signal") {
  // The worker thread used to block the signals for itself only: a signal
  // to the process then killed it by default and left its child running.
  gd::TempDir dir;
  const std::string pid_file = dir / "child.pid";
  const pid_t tool = ::fork();
  REQUIRE(tool >= 0);
  if (tool == 0) {  // the tool: a child asked ahead, the main thread busy with files
    gd::ChildrenAhead ahead;
    gd::ChildRequest request;
    request.args = {"sleep"};
    request.deadline = 60s;
    ahead.start(request, [&](const std::function<void(int)>& started) {
      return gd::run_child({"sh", "-c", "echo $$ > " + pid_file + "; exec sleep 300"}, 60s, gd::OutputKeep::head, std::nullopt, started);
    });
    std::this_thread::sleep_for(60s);
    std::_Exit(0);
  }
  const pid_t asked = gd::helper_pid(pid_file);
  REQUIRE(asked > 0);
  ::kill(tool, SIGTERM);
  int status = 0;
  REQUIRE(::waitpid(tool, &status, 0) == tool);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  for (int tries = 0; tries < 100 && gd::alive(asked); ++tries) std::this_thread::sleep_for(10ms);
  const bool left_running = gd::alive(asked);
  if (left_running) ::kill(asked, SIGKILL);
  CHECK_FALSE(left_running);
}
