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

TEST_CASE("children asked ahead start in the order they are asked, however their threads are scheduled") {
  gd::ChildrenAhead ahead;
  std::mutex mutex;
  std::vector<std::string> spawned;
  // The first asked is the slowest to reach its spawn: without waiting for
  // it, the later ones would start first (the cuInit child, asked first
  // because it takes longest, used to start third or fourth).
  const auto runner = [&](std::string name, std::chrono::milliseconds before_spawn) {
    return [&, name, before_spawn](const std::function<void(int)>& started) {
      std::this_thread::sleep_for(before_spawn);
      {
        std::lock_guard lock(mutex);
        spawned.push_back(name);
      }
      started(0);
      gd::ChildAnswer answer;
      answer.exit = 0;
      answer.output = name;
      return answer;
    };
  };
  std::vector<gd::ChildRequest> requests;
  for (const char* name : {"cuda", "nvml", "smi"}) requests.push_back({gd::ChildKind::command, {name}, std::chrono::seconds(5)});
  ahead.start(requests[0], runner("cuda", std::chrono::milliseconds(50)));
  ahead.start(requests[1], runner("nvml", std::chrono::milliseconds(0)));
  ahead.start(requests[2], runner("smi", std::chrono::milliseconds(0)));
  CHECK(spawned == std::vector<std::string>{"cuda", "nvml", "smi"});
  for (const auto& request : requests) {
    const auto answer = ahead.take(request, std::nullopt);
    REQUIRE(answer);
    CHECK(answer->output == request.args[0]);
  }
}

TEST_CASE("a child asked ahead that cannot start does not keep the asker waiting") {
  gd::ChildrenAhead ahead;
  const gd::ChildRequest request{gd::ChildKind::command, {"absent"}, std::chrono::seconds(5)};
  ahead.start(request, [](const std::function<void(int)>&) {
    gd::ChildAnswer answer;
    answer.error = "ENOENT";  // run_child's answer where the program is missing: started is never called
    return answer;
  });
  const auto answer = ahead.take(request, std::nullopt);
  REQUIRE(answer);
  CHECK(answer->error == "ENOENT");
}
