#include "probes/daemon_answer.h"

#include "test_support/fake_host.h"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>

TEST_CASE("why a child that asked a daemon gave no answer: not asked, late, its own words, or how it ended") {
  gd::ChildAnswer unrecorded;
  unrecorded.error = "not-recorded";
  CHECK(gd::daemon_unanswered(unrecorded, "late") == "not asked (not-recorded)");
  gd::ChildAnswer late;
  late.timed_out = true;
  CHECK(gd::daemon_unanswered(late, "it did not answer within 3 s") == "it did not answer within 3 s");
  CHECK(gd::daemon_unanswered(gd::child_answer("", 1, "\n  cannot connect to x: permission denied (EACCES)  \nmore\n"), "late") ==
        "cannot connect to x: permission denied (EACCES)");
  CHECK(gd::daemon_unanswered(gd::child_answer("", 3), "late") == "the child that asked it exited 3");
  gd::ChildAnswer killed;
  killed.signal = 9;
  CHECK(gd::daemon_unanswered(killed, "late") == "the child that asked it was killed");
  CHECK_FALSE(gd::daemon_unanswered(gd::child_answer("{}", 0, "a warning"), "late"));
  CHECK(gd::child_words_or(gd::child_answer("", 0, "\x1b[31mred\n"), "none") == "\\x1b[31mred");
  CHECK(gd::child_words_or(gd::child_answer(""), "none") == "none");
}

TEST_CASE("the runtime names a daemon listed: escaped, at most 32, and whether there were more") {
  std::vector<std::string> names;
  const boost::json::value listed = boost::json::parse(R"({"runc":{},"nvi\u001bdia":{"path":"x"}})");
  CHECK_FALSE(gd::runtime_names(&listed, names));
  CHECK(names == std::vector<std::string>{"runc", "nvi\\x1bdia"});
  boost::json::object many;
  for (int i = 0; i < 40; ++i) many["r" + std::to_string(i)] = boost::json::object();
  const boost::json::value more(many);
  std::vector<std::string> cut;
  CHECK(gd::runtime_names(&more, cut));
  CHECK(cut.size() == 32);
  std::vector<std::string> none;
  const boost::json::value array = boost::json::parse("[1]");
  CHECK_FALSE(gd::runtime_names(&array, none));
  CHECK_FALSE(gd::runtime_names(nullptr, none));
  CHECK(none.empty());
}
