#include "host/command_runner.h"

#include <doctest/doctest.h>

using namespace std::chrono_literals;

TEST_CASE("run_command captures output and the exit status") {
  auto result = gd::run_command({"sh", "-c", "echo out; echo err >&2; exit 3"}, 5s);
  CHECK_FALSE(result.timed_out);
  REQUIRE(result.exit);
  CHECK(*result.exit == 3);
  CHECK(result.stdout_text == "out\n");
  CHECK(result.stderr_text == "err\n");
}

TEST_CASE("run_command kills a command that outlives its deadline") {
  const auto start = std::chrono::steady_clock::now();
  auto result = gd::run_command({"sh", "-c", "sleep 30 & sleep 30"}, 300ms);
  CHECK(result.timed_out);
  CHECK_FALSE(result.exit);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
}

TEST_CASE("run_command reports a missing program instead of throwing") {
  auto result = gd::run_command({"gpudoctor-no-such-program"}, 1s);
  CHECK(result.error == "ENOENT");
}

TEST_CASE("run_command caps runaway output") {
  auto result = gd::run_command({"sh", "-c", "head -c 3000000 /dev/zero"}, 5s);
  CHECK(result.stdout_text.size() <= gd::k_max_command_output);
}
