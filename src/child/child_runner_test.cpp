#include "child/child_runner.h"

#include <doctest/doctest.h>

#include <csignal>

using namespace std::chrono_literals;

TEST_CASE("run_child captures output and the exit status") {
  auto answer = gd::run_child({"sh", "-c", "echo out; echo err >&2; exit 3"}, 5s);
  CHECK_FALSE(answer.timed_out);
  REQUIRE(answer.exit);
  CHECK(*answer.exit == 3);
  CHECK(answer.output == "out\n");
  CHECK(answer.error_output == "err\n");
}

TEST_CASE("run_child kills a child that outlives its deadline, with its process group") {
  const auto start = std::chrono::steady_clock::now();
  auto answer = gd::run_child({"sh", "-c", "sleep 30 & sleep 30"}, 300ms);
  CHECK(answer.timed_out);
  CHECK_FALSE(answer.exit);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
}

TEST_CASE("run_child names the signal of a child that crashed") {
  auto answer = gd::run_child({"sh", "-c", "kill -SEGV $$"}, 5s);
  CHECK_FALSE(answer.exit);
  REQUIRE(answer.signal);
  CHECK(*answer.signal == SIGSEGV);
}

TEST_CASE("run_child reports a missing program instead of throwing") {
  auto answer = gd::run_child({"gpudoctor-no-such-program"}, 1s);
  CHECK(answer.error == "ENOENT");
}

TEST_CASE("run_child caps runaway output") {
  auto answer = gd::run_child({"sh", "-c", "head -c 3000000 /dev/zero"}, 5s);
  CHECK(answer.output.size() <= gd::k_max_child_output);
}

TEST_CASE("a child stopped at its deadline leaves exactly the bytes it wrote, no padding") {
  auto answer = gd::run_child({"sh", "-c", "printf 'partial answer'; sleep 30"}, 500ms);
  CHECK(answer.timed_out);
  CHECK(answer.output == "partial answer");
  CHECK(answer.error_output.empty());
}
