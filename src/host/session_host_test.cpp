#include "host/session_host.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace gd {
namespace {

const ChildRequest k_table{ChildKind::driver_probe, {"nvml", "table"}};
const ChildRequest k_session{ChildKind::driver_probe, {"nvml", "table", "repeat"}};

ChildAnswer said(std::string output) {
  ChildAnswer answer;
  answer.output = std::move(output);
  return answer;
}

}  // namespace

TEST_CASE("a session host answers its request from one session, everything else from the host below") {
  FakeHost inner;
  inner.sessions[k_session.key()] = {said("1"), said("2")};
  inner.answers["command nvidia-smi -L"] = said("GPU 0");
  SessionHost host(inner, k_table, k_session);
  CHECK(host.ask(k_table).output == "1");
  CHECK(host.ask(k_table).output == "2");
  CHECK(host.ask({ChildKind::command, {"nvidia-smi", "-L"}}).output == "GPU 0");
  CHECK(inner.sessions_opened == 1);
  CHECK(inner.asked.size() == 1);  // only nvidia-smi went below
}

TEST_CASE("a session host opens its session when the request is asked ahead, and passes other ask-aheads on") {
  FakeHost inner;
  inner.sessions[k_session.key()] = {said("1")};
  SessionHost host(inner, k_table, k_session);
  host.ask_ahead(k_table);
  host.ask_ahead({ChildKind::command, {"nvidia-smi", "-L"}});
  CHECK(inner.sessions_opened == 1);
  REQUIRE(inner.asked_ahead.size() == 1);
  CHECK(inner.asked_ahead[0].args[0] == "nvidia-smi");
  CHECK(host.ask(k_table).output == "1");
  CHECK(inner.sessions_opened == 1);
}

TEST_CASE("a session host opens a new session after one gave its last answer") {
  FakeHost inner;
  ChildAnswer exited = said("last");
  exited.exit = 0;
  ChildAnswer timed_out = said("");
  timed_out.timed_out = true;
  inner.sessions[k_session.key()] = {said("1"), exited, timed_out};
  SessionHost host(inner, k_table, k_session);
  CHECK(host.ask(k_table).output == "1");
  CHECK(host.ask(k_table).exit == 0);
  CHECK(inner.sessions_opened == 1);
  CHECK(host.ask(k_table).timed_out);  // from a second session: the fake's sessions share one script
  CHECK(inner.sessions_opened == 2);
  host.ask(k_table);
  CHECK(inner.sessions_opened == 3);
}

TEST_CASE("a session host over a host without sessions asks each time, as a check always did") {
  FakeHost inner;
  inner.answers[k_table.key()] = said("asked");
  SessionHost host(inner, k_table, k_session);
  CHECK(host.ask(k_table).output == "asked");
  CHECK(host.ask(k_table).output == "asked");
  CHECK(inner.asked.size() == 2);
  host.ask_ahead(k_table);
  CHECK(inner.asked_ahead.size() == 1);
}

}  // namespace gd
