// `gpudoctor diff`: two testdata snapshots, replayed, compared bottom up.

#include "check/run_check.h"
#include "snapshot/replay_host.h"
#include "report/renderers.h"
#include "report/report_diff.h"
#include "rules/rule_set.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace gd {
namespace {

boost::json::object report_of(const std::string& scenario) {
  ReplayHost host(std::string(GPUDOCTOR_SCENARIOS) + "/" + scenario);
  return report_to_json(run_check(host, load_embedded_rules()));
}

}  // namespace

TEST_CASE("diff: the healthy HGX against the one whose Fabric Manager is down") {
  const auto diff = diff_reports(report_of("host-hgx-8gpu-nvswitch"), report_of("host-hgx-fabric-manager-down"));
  CHECK(diff.verdict_a == "ok");
  CHECK(diff.verdict_b == "fail");
  CHECK(diff.failing_b == "driver-libs");
  REQUIRE(diff.layers.size() == 1);  // every other layer is the same
  const auto& layer = diff.layers[0];
  CHECK(layer.id == "driver-libs");
  CHECK(layer.status_a == "ok");
  CHECK(layer.status_b == "fail");
  CHECK(layer.only_a.empty());
  REQUIRE(layer.only_b.size() == 10);
  CHECK(layer.only_b[0] == "cuda-init-system-not-ready");
  CHECK(std::find(layer.only_b.begin(), layer.only_b.end(), "fabric-manager-not-running") != layer.only_b.end());
  // The layer's own facts come before nested ones: the cuInit result is among the first shown.
  bool init_shown = false;
  for (std::size_t i = 0; i < 3; ++i) init_shown = init_shown || layer.facts[i].path == "cuda_probe.init_result";
  CHECK(init_shown);
  const auto text = render_diff_text(diff, "A", "B");
  CHECK(text.find("cuda_probe.init_result: A 0 | B 802") != std::string::npos);
  CHECK(diff_to_json(diff, "A", "B").at("layers").as_array().size() == 1);
}

TEST_CASE("diff: a report against itself has no differences; layers are listed bottom up") {
  const auto same = report_of("host-healthy-h100");
  CHECK(diff_reports(same, same).layers.empty());
  const auto diff = diff_reports(report_of("host-no-gpu"), report_of("host-healthy-h100"));
  REQUIRE(diff.layers.size() >= 2);
  CHECK(diff.layers[0].id == "hardware");
}

}  // namespace gd
