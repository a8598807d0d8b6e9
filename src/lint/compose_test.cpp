// The compose reader and its checks, on testdata/compose: every mistake at
// its line with its corrected line; the healthy forms (plain, CDI, anchors
// with merge keys) quiet; hostile YAML read or refused, never a crash.

#include "lint/compose.h"
#include "lint/compose_lint.h"

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE) + "/testdata/compose/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> where(const std::vector<gd::LintFinding>& findings) {
  std::set<std::string> out;
  for (const auto& finding : findings) out.insert(std::to_string(finding.line) + " " + gd::severity_name(finding.severity) + " " + finding.rule);
  return out;
}

}  // namespace

TEST_CASE("compose: each GPU mistake at its line") {
  const auto rules = gd::load_embedded_rules();
  const auto file = gd::parse_compose(fixture("mistakes.compose.yaml"));
  CHECK(file.problems.empty());
  const auto findings = gd::lint_compose(file, rules);
  CHECK(where(findings) == std::set<std::string>{
                               "7 fail compose-capabilities-without-compute",  // through the <<: *video-gpu merge
                               "17 fail compose-capabilities-without-compute",
                               "25 fail compose-gpu-capability-missing",
                               "32 fail compose-count-and-device-ids",
                               "38 warn compose-runtime-nvidia-without-devices",
                               "42 warn compose-device-nodes-by-hand",
                               "47 fail compose-stubs-on-loader-path",
                               "48 fail compose-capabilities-env-without-compute",
                               "52 warn compose-visible-devices-none",
                               "55 info compose-service-gpus-attribute",
                               "63 warn compose-capabilities-without-utility",
                               "70 fail compose-device-request-without-capabilities",
                           });
  // Every compose check is exercised by the fixture.
  std::set<std::string> raised;
  for (const auto& finding : findings) raised.insert(finding.rule);
  for (const auto& id : gd::compose_lint_ids()) CHECK_MESSAGE(raised.count(id) == 1, id);
  // Corrected lines keep the file's own layout and say what to write.
  std::set<std::string> corrected;
  for (const auto& finding : findings)
    if (finding.corrected) corrected.insert(*finding.corrected);
  CHECK(corrected.count("              capabilities: [gpu, utility, compute]") == 1);
  CHECK(corrected.count("              capabilities: [gpu, compute, utility]") == 1);
  CHECK(corrected.count("          - capabilities: [gpu, video, compute, utility]") == 1);
  CHECK(corrected.count("      - LD_LIBRARY_PATH=/usr/local/cuda/lib64") == 1);
  CHECK(corrected.count("      - NVIDIA_DRIVER_CAPABILITIES=compute,utility") == 1);
}

TEST_CASE("compose: the healthy forms stay quiet, CDI and merge keys included") {
  const auto rules = gd::load_embedded_rules();
  for (const char* name : {"healthy.compose.yaml", "healthy-cdi.compose.yaml", "healthy-anchors.compose.yaml"}) {
    CAPTURE(name);
    const auto file = gd::parse_compose(fixture(name));
    CHECK(file.problems.empty());
    CHECK(!file.services.empty());
    CHECK(gd::lint_compose(file, rules).empty());
  }
  // The anchored reservation is seen through <<: on both services.
  const auto anchors = gd::parse_compose(fixture("healthy-anchors.compose.yaml"));
  REQUIRE(anchors.services.size() == 2);
  CHECK(anchors.services[1].device_requests.at(0).device_ids == std::vector<std::string>{"0", "1"});
}

TEST_CASE("compose: hostile YAML is refused or read, never a crash or a hang") {
  CHECK(gd::parse_compose("services: [unclosed").problems.at(0).starts_with("not YAML"));
  CHECK(gd::parse_compose("just a string").problems.at(0).find("no services") != std::string::npos);
  CHECK(gd::parse_compose("services:\n  - a\n  - b\n").problems.at(0).find("no services") != std::string::npos);
  CHECK(gd::parse_compose(std::string(100000, '[')).problems.at(0).find("nested") != std::string::npos);
  CHECK(gd::parse_compose(std::string(gd::k_max_compose + 1, ' ')).problems.at(0).find("larger") != std::string::npos);
  static constexpr char binary[] = "services:\n  a:\n    image: \"\xff\xfe\"\n\0";
  CHECK(gd::parse_compose(std::string(binary, sizeof binary - 1)).services.size() <= 1);
  // A billion laughs: aliases are shared, not expanded, and only known paths are walked.
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    const std::string previous(1, static_cast<char>(c - 1));
    laughs += std::string(1, c) + ": &" + c + " [*" + previous + ", *" + previous + ", *" + previous + ", *" + previous + "]\n";
  }
  laughs += "services:\n  s:\n    environment: *j\n    devices: *j\n";
  const auto bomb = gd::parse_compose(laughs);
  CHECK(bomb.services.size() == 1);
  // A merge that merges itself ends.
  CHECK(gd::parse_compose("services:\n  s: &s\n    <<: *s\n").services.size() <= 1);
  // Merge lists that fan out: eight levels of ten merges are 10^8 paths to a key no map has;
  // each lookup is bounded (it used to walk them all, for every key of every service).
  std::string fan = "x-0: &m0 {image: base}\n";
  for (int level = 1; level <= 8; ++level) {
    const std::string below = "*m" + std::to_string(level - 1);
    fan += "x-" + std::to_string(level) + ": &m" + std::to_string(level) + " {<<: [";
    for (int i = 0; i < 10; ++i) fan += (i ? ", " : "") + below;
    fan += "]}\n";
  }
  fan += "services:\n  s:\n    <<: *m8\n";
  CHECK(fan.size() < 1024);
  const auto fanned = gd::parse_compose(fan);
  REQUIRE(fanned.services.size() == 1);
}
