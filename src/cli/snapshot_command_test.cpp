// `gpudoctor snapshot --replay SCENARIO --output X.tar.gz`, as a user runs it:
// redacted by default, one archive, and a replay of it reaches the diagnosis
// of the original for every scenario.

#include "archive/gzip.h"
#include "check/run_check.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "snapshot/replay_host.h"
#include "rules/rule_set.h"
#include "test_support/scenario_options.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

std::string read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The options a scenario is checked with ("options" in its expected.json), as arguments.
std::vector<std::string> scenario_args(const fs::path& dir) {
  return gd::scenario_cli_args(json::parse(read_whole(dir / "expected.json")).as_object());
}

// What a diagnosis is: the verdict, where it fails, what the closing line
// names, and every finding by rule and severity.
std::string diagnosis(const std::string& snapshot, const std::vector<std::string>& args) {
  const auto options = gd::parse_options([&] {
    std::vector<std::string> all{"check", "--replay", snapshot};
    all.insert(all.end(), args.begin(), args.end());
    return all;
  }());
  gd::ReplayHost host(snapshot);
  const auto report = gd::run_check(host, gd::load_embedded_rules(),
                                    {true, false, {}, options.image, options.assumed_gpu, options.assumed_driver});
  const auto* headline = gd::headline_finding(report);
  std::string out = std::string(gd::status_name(report.verdict)) + " at " + report.failing_layer.value_or("-") + ", headline " +
                    (headline ? headline->rule : "-") + ":";
  std::set<std::string> findings;
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings) findings.insert(finding.rule + "/" + gd::severity_name(finding.severity));
  for (const auto& finding : findings) out += " " + finding;
  return out;
}

int snapshot(const fs::path& scenario, const fs::path& output, std::vector<std::string> extra) {
  std::vector<std::string> args{"snapshot", "--replay", scenario.string(), "--output", output.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return gd::run_snapshot_command(gd::parse_options(args));
}

}  // namespace

TEST_CASE("a redacted .tar.gz snapshot of every scenario replays to the original diagnosis") {
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(GPUDOCTOR_SCENARIOS))) {
    if (!fs::exists(entry.path() / "expected.json")) continue;
    CAPTURE(entry.path().filename().string());
    const auto args = scenario_args(entry.path());
    gd::TempDir out;
    REQUIRE(snapshot(entry.path(), out / "s.tar.gz", args) == 0);
    CHECK(diagnosis(out / "s.tar.gz", args) == diagnosis(entry.path().string(), args));
    CHECK(std::distance(fs::directory_iterator(out.path()), fs::directory_iterator()) == 1);  // the staging directory is gone
    ++count;
  }
  CHECK(count >= 100);
}

TEST_CASE("no host name, user name, home path, UUID, serial or address survives redaction, and the report says what went") {
  const auto scenario = fs::path(GPUDOCTOR_SCENARIOS) / "host-identifying-values";
  const std::vector<std::string> secrets{"gpu-node-17", "alice", "8f3a1c2d", "a3b4c5d6e7f8", "1654922034781", "900-21010",
                                         "52:54:00:12:34:56", "192.168.10.23", "fd00:10:20::23", "4C530001230417116591",
                                         "MT2425X0CNRY", "3b7e4f0c9a2d11eeb962f1a2c3d4e5f6"};
  gd::TempDir out;
  REQUIRE(snapshot(scenario, out / "plain.tar.gz", {"--no-redact"}) == 0);
  REQUIRE(snapshot(scenario, out / "redacted.tar.gz", {}) == 0);
  // The archive unpacked is every name, link and byte of the snapshot, report.json included.
  const auto plain = gd::gzip_decompress(read_whole(out / "plain.tar.gz"), 64 << 20).value();
  const auto redacted = gd::gzip_decompress(read_whole(out / "redacted.tar.gz"), 64 << 20).value();
  for (const auto& secret : secrets) {
    CHECK_MESSAGE(plain.find(secret) != std::string::npos, "the fixture must carry " << secret);
    CHECK_MESSAGE(redacted.find(secret) == std::string::npos, secret << " survived redaction");
  }
  CHECK(diagnosis(out / "redacted.tar.gz", {}) == diagnosis(scenario.string(), {}));
  CHECK(diagnosis(out / "plain.tar.gz", {}) == diagnosis(scenario.string(), {}));
  gd::ReplayHost replay(out / "redacted.tar.gz");
  const auto report = gd::run_check(replay, gd::load_embedded_rules());
  REQUIRE(report.redacted.has_value());
  CHECK(*report.redacted == std::vector<std::string>{"1 GPU or MIG UUID", "1 user name", "1 host name", "4 serial numbers",
                                                      "1 board part number", "1 MAC address", "1 IPv4 address", "1 IPv6 address"});
  gd::ReplayHost unredacted(out / "plain.tar.gz");
  CHECK_FALSE(gd::run_check(unredacted, gd::load_embedded_rules()).redacted.has_value());
}

TEST_CASE("snapshot refuses to overwrite an archive, and a directory output still works") {
  const auto scenario = fs::path(GPUDOCTOR_SCENARIOS) / "host-healthy-h100";
  gd::TempDir out;
  std::ofstream(out / "taken.tar.gz") << "precious";
  CHECK_THROWS_AS(snapshot(scenario, out / "taken.tar.gz", {}), gd::UsageError);
  CHECK(read_whole(out / "taken.tar.gz") == "precious");
  REQUIRE(snapshot(scenario, out / "dir", {}) == 0);
  CHECK(fs::exists(out / "dir/snapshot.json"));
  CHECK(diagnosis(out / "dir", {}) == diagnosis(scenario.string(), {}));
}
