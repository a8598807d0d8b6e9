#include "child/child_session.h"

#include <doctest/doctest.h>

#include <signal.h>

using namespace std::chrono_literals;

namespace {

// A child in the session protocol: one answer at start, another for each line read.
const std::vector<std::string> k_counter{"sh", "-c", "n=1; echo \"answer $n\"; echo; while read x; do n=$((n+1)); echo \"answer $n\"; echo; done"};

}  // namespace

TEST_CASE("a child session: the answer given at start, then one more each time it is asked, from one process") {
  auto session = gd::start_child_session({"sh", "-c", "echo \"pid $$\"; echo; while read x; do echo \"pid $$\"; echo err >&2; echo; done"},
                                         gd::OutputKeep::head);
  const auto first = session->next(5s);
  CHECK(first.output.starts_with("pid "));
  CHECK_FALSE(first.exit);  // still running: no exit yet
  CHECK_FALSE(first.timed_out);
  const auto second = session->next(5s);
  CHECK(second.output == first.output);  // the same process answered
  CHECK_FALSE(second.exit);
  // What it says on stderr comes with an answer as far as it was read: the
  // two pipes keep no order between them.
  const auto third = session->next(5s);
  CHECK((second.error_output + third.error_output).starts_with("err\n"));
}

TEST_CASE("a child session answers one answer at a time, even when two came in one read") {
  auto session = gd::start_child_session({"sh", "-c", "printf 'a\\n\\nb\\n\\n'; sleep 5"}, gd::OutputKeep::head);
  CHECK(session->next(5s).output == "a\n");
  CHECK(session->next(5s).output == "b\n");
}

TEST_CASE("a child session's counter counts each ask") {
  auto session = gd::start_child_session(k_counter, gd::OutputKeep::head);
  for (int n = 1; n <= 4; ++n) CHECK(session->next(5s).output == "answer " + std::to_string(n) + "\n");
}

TEST_CASE("a child session ends with the child: its exit, its crash or its deadline is the last answer") {
  SUBCASE("it exits after its first answer: the next is what it said before exiting, with the status") {
    auto session = gd::start_child_session({"sh", "-c", "echo one; echo; read x; echo partial; exit 4"}, gd::OutputKeep::head);
    CHECK(session->next(5s).output == "one\n");
    const auto last = session->next(5s);
    CHECK(last.output == "partial\n");
    REQUIRE(last.exit);
    CHECK(*last.exit == 4);
    CHECK(session->next(5s).error == "ECHILD");  // nothing is asked of a child that has gone
  }
  SUBCASE("it crashes") {
    auto session = gd::start_child_session({"sh", "-c", "kill -SEGV $$"}, gd::OutputKeep::head);
    const auto last = session->next(5s);
    REQUIRE(last.signal);
    CHECK(*last.signal == SIGSEGV);
  }
  SUBCASE("it never finishes an answer") {
    auto session = gd::start_child_session({"sh", "-c", "echo half; sleep 30"}, gd::OutputKeep::head);
    const auto start = std::chrono::steady_clock::now();
    const auto last = session->next(300ms);
    CHECK(last.timed_out);
    CHECK(last.output == "half\n");
    CHECK(std::chrono::steady_clock::now() - start < 5s);
  }
  SUBCASE("it cannot be started") {
    auto session = gd::start_child_session({"/nonexistent/gpudoctor-test"}, gd::OutputKeep::head);
    CHECK(session->next(5s).error == "ENOENT");
  }
}

TEST_CASE("a child session's child is stopped with its group when the session goes") {
  auto session = gd::start_child_session({"sh", "-c", "echo \"$$\"; echo; while read x; do :; done; sleep 30"}, gd::OutputKeep::head);
  const auto answer = session->next(5s);
  const pid_t pid = std::stoi(answer.output);
  session.reset();
  CHECK(::kill(pid, 0) != 0);  // reaped: no such process left
}
