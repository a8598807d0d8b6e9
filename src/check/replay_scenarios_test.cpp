// Replays every scenario (build/testdata/snapshots, generated from tools/scenarios/) and checks its verdict, failing
// layer and exact set of warn/fail findings against expected.json. Then it
// records each replay into a fresh snapshot and replays that, which must
// give the same diagnosis: the snapshot captures everything the checks read.

#include "check/run_check.h"
#include "host/live_host.h"
#include "snapshot/recording_host.h"
#include "snapshot/replay_host.h"
#include "rules/rule_set.h"
#include "test_support/temp_dir.h"

#include "test_support/scenario_options.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

struct Expected {
  std::string verdict;
  std::string failing_layer;  // empty for null
  std::string headline;       // the rule the closing line must name; empty for an ok scenario
  std::set<std::string> findings, absent, info;
  // What the real program did in a captured state ("works" or "fails"); empty for a generated scenario.
  std::string torch;
  gd::ProbeOptions options;  // "options": {"image", "gpu", "host_driver", "smoke", "no_probe"}: how the scenario is checked
  std::string action;        // what a fleet should do (model/action.h); empty: not stated
};

std::set<std::string> string_set(const json::value& value) {
  std::set<std::string> out;
  for (const auto& item : value.as_array()) out.emplace(item.as_string());
  return out;
}

Expected read_expected(const fs::path& dir) {
  std::ifstream in(dir / "expected.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto document = json::parse(text.str()).as_object();
  Expected expected;
  expected.verdict = std::string(document.at("verdict").as_string());
  if (document.at("failing_layer").is_string()) expected.failing_layer = std::string(document.at("failing_layer").as_string());
  if (const auto* headline = document.if_contains("headline"); headline && headline->is_string())
    expected.headline = std::string(headline->as_string());
  expected.findings = string_set(document.at("findings"));
  expected.absent = string_set(document.at("absent"));
  expected.info = string_set(document.at("info"));
  expected.options = gd::scenario_probe_options(document);
  if (const auto* torch = document.if_contains("torch")) expected.torch = std::string(torch->as_string());
  if (const auto* action = document.if_contains("action")) expected.action = std::string(action->as_string());
  return expected;
}

struct Outcome {
  std::string verdict;
  std::string failing_layer;
  std::string headline;
  std::set<std::string> findings, info;
  std::string action;
};

Outcome outcome_of(const gd::Report& report) {
  const auto* headline = gd::headline_finding(report);
  Outcome outcome{gd::status_name(report.verdict), report.failing_layer.value_or(""), headline ? headline->rule : "", {}, {},
                  gd::enum_name(gd::report_action(report))};
  for (const auto& layer : report.layers) {
    std::size_t said = 0;  // findings about input the layer's probe could not use
    for (const auto& finding : layer.findings) {
      (finding.severity == gd::Severity::info ? outcome.info : outcome.findings).insert(finding.rule);
      CHECK_MESSAGE(finding.layer == layer.facts.id, finding.rule);
      if (finding.rule.starts_with(layer.facts.id + "-input-")) ++said;
    }
    // One path for what gpudoctor could not read: each note a probe made is a finding, never only a fact.
    const auto* unreadable = layer.facts.facts.if_contains(gd::k_unreadable_fact);
    CHECK_MESSAGE(said == (unreadable ? unreadable->as_array().size() : 0), layer.facts.id << ": a note without its " << layer.facts.id << "-input-* finding");
  }
  return outcome;
}

// Sets print as text in a failed check: "a, b, c".
std::string listed(const std::set<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::vector<fs::path> scenarios() {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(fs::path(GPUDOCTOR_SCENARIOS)))
    if (fs::exists(entry.path() / "expected.json")) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

}  // namespace

// One SUBCASE per scenario, so that one runs alone: replay_tests -sc=host-healthy-h100
TEST_CASE("every scenario snapshot replays to its expected diagnosis") {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  const auto dirs = scenarios();
  REQUIRE(dirs.size() >= 30);
  for (const auto& dir : dirs) SUBCASE(dir.filename().string().c_str()) {
    const Expected expected = read_expected(dir);
    gd::ReplayHost host(dir.string());
    const Outcome got = outcome_of(gd::run_check(host, rules, expected.options));
    CHECK(got.verdict == expected.verdict);
    CHECK(got.failing_layer == expected.failing_layer);
    // Ground truth outranks any expectation: where the real program worked, no FAIL; where it failed, a FAIL.
    if (expected.torch == "works") CHECK_MESSAGE(got.verdict != "fail", "torch worked in this captured state");
    if (expected.torch == "fails") CHECK_MESSAGE(got.verdict == "fail", "torch failed in this captured state");
    // The closing line names the root cause, stated by every scenario that is not ok.
    CHECK_MESSAGE(expected.headline.empty() == (expected.verdict == "ok"), "state the headline rule in its recipe (tools/scenarios/, expect(headline=...))");
    CHECK(got.headline == expected.headline);
    CHECK(listed(got.findings) == listed(expected.findings));
    if (!expected.action.empty()) CHECK(got.action == expected.action);
    // Healthy is nothing to do: a fleet never drains a machine whose verdict is OK.
    if (got.verdict == "ok") CHECK(got.action == "none");
    for (const auto& rule : expected.info) CHECK_MESSAGE(got.info.count(rule) == 1, rule);
    for (const auto& rule : expected.absent) CHECK_MESSAGE(got.findings.count(rule) == 0, rule);
  }
}

TEST_CASE("a snapshot recorded from a replay replays to the same diagnosis") {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  for (const auto& dir : scenarios()) SUBCASE(dir.filename().string().c_str()) {
    gd::ReplayHost original(dir.string());
    gd::TempDir out;
    fs::create_directories(out / "root");
    const auto options = read_expected(dir).options;
    gd::RecordingHost recorder(original, out.path());
    const Outcome first = outcome_of(gd::run_check(recorder, rules, options));
    REQUIRE(recorder.finish("test").has_value());
    gd::ReplayHost copy(out.path());
    const Outcome second = outcome_of(gd::run_check(copy, rules, options));
    CHECK(second.verdict == first.verdict);
    CHECK(second.failing_layer == first.failing_layer);
    CHECK(second.findings == first.findings);
    CHECK(second.info == first.info);
  }
}

TEST_CASE("every rule is triggered by at least one scenario") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  std::set<std::string> covered;
  for (const auto& dir : scenarios()) {
    const Expected expected = read_expected(dir);
    covered.insert(expected.findings.begin(), expected.findings.end());
    covered.insert(expected.info.begin(), expected.info.end());
  }
  for (const auto& rule : rules.rules) CHECK_MESSAGE(covered.count(rule.id) == 1, "no scenario triggers " << rule.id);
}

TEST_CASE("every rule that can fail has a healthy scenario of its situation in which it stays quiet") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  std::ifstream in(fs::path(GPUDOCTOR_TESTDATA) / "healthy-guards.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto guards = json::parse(text.str()).as_object().at("guards").as_object();
  for (const auto& rule : rules.rules) {
    if (rule.severity != gd::Severity::fail) continue;
    CAPTURE(rule.id);
    const auto* scenario = guards.if_contains(rule.id);
    REQUIRE_MESSAGE(scenario, "name a healthy scenario for it in testdata/healthy-guards.json");
    const fs::path dir = fs::path(GPUDOCTOR_SCENARIOS) / std::string(scenario->as_string());
    REQUIRE(fs::exists(dir / "expected.json"));
    const Expected expected = read_expected(dir);
    CHECK(expected.verdict == "ok");
    gd::ReplayHost host(dir.string());
    const Outcome got = outcome_of(gd::run_check(host, rules, expected.options));
    CHECK(got.findings.count(rule.id) == 0);
    CHECK(got.verdict == "ok");
  }
}

// `check --root DIR` and a replay of `snapshot --root DIR` must agree, for
// every scenario root: what was listed and never read is recorded too.
TEST_CASE("a snapshot of --root replays to the verdict --root gives, for every scenario root") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  for (const auto& dir : scenarios()) {
    CAPTURE(dir.filename().string());
    const auto options = read_expected(dir).options;
    gd::LiveHost root((dir / "root").string());
    const Outcome direct = outcome_of(gd::run_check(root, rules, options));
    gd::TempDir out;
    fs::create_directories(out / "root");
    gd::LiveHost again((dir / "root").string());
    gd::RecordingHost recorder(again, out.path());
    gd::run_check(recorder, rules, options);
    REQUIRE(recorder.finish("test").has_value());
    gd::ReplayHost replay(out.path());
    const Outcome replayed = outcome_of(gd::run_check(replay, rules, options));
    CHECK(replayed.verdict == direct.verdict);
    CHECK(replayed.failing_layer == direct.failing_layer);
    CHECK(replayed.findings == direct.findings);
    CHECK(replayed.info == direct.info);
  }
}


// The fix for "no kernel image" names the wheel index to install: the newest
// whose builds carry the GPU's code and whose CUDA the driver runs.
TEST_CASE("no kernel image: the suggested PyTorch index fits the GPU and the driver") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  for (const auto& [scenario, index] : {std::pair{"host-rtx5090-torch-cu124", "cu128"}, std::pair{"host-pascal-torch-cu128", "cu126"}}) {
    CAPTURE(scenario);
    gd::ReplayHost host((fs::path(GPUDOCTOR_SCENARIOS) / scenario).string());
    const auto report = gd::run_check(host, rules);
    const auto& application = report.layers.back();
    REQUIRE(application.facts.id == "application");
    const auto& checks = application.facts.facts.at("checks").as_array();
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].as_object().at("suggested_index").as_string() == index);
    REQUIRE(application.findings.size() >= 1);
    CHECK(application.findings[0].fix.find(std::string("whl/") + index + "`") != std::string::npos);
  }
}
