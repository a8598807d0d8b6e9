// The JSON report's headline is the text report's closing line, for
// machines: the same root-cause rule and the same words, in every scenario.

#include "check/run_check.h"
#include "snapshot/replay_host.h"
#include "report/renderers.h"
#include "rules/rule_set.h"
#include "test_support/scenario_options.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

TEST_CASE("every scenario's JSON headline is its closing line: the root cause, or null when healthy") {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(fs::path(GPUDOCTOR_SCENARIOS)))
    if (fs::exists(entry.path() / "expected.json")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(dirs.size() >= 30);
  for (const auto& dir : dirs) SUBCASE(dir.filename().string().c_str()) {
    std::ifstream in(dir / "expected.json");
    std::stringstream text;
    text << in.rdbuf();
    const auto expected = boost::json::parse(text.str()).as_object();
    const gd::ProbeOptions options = gd::scenario_probe_options(expected);
    gd::ReplayHost host(dir.string());
    const gd::Report report = gd::run_check(host, rules, options);
    const auto headline = gd::report_to_json(report).at("headline");
    CHECK(headline.is_null() == (expected.at("verdict").as_string() == "ok"));
    if (headline.is_null()) continue;
    CHECK(headline.at("rule") == expected.at("headline"));
    CHECK(headline.at("line").as_string() == gd::verdict_line(report));
    CHECK(gd::verdict_line(report).find(std::string(headline.at("message").as_string())) != std::string::npos);
  }
}
