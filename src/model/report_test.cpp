#include "model/report.h"

#include "model/fact_text.h"

#include <doctest/doctest.h>

namespace {

gd::Report two_layers(gd::Severity kernel_finding) {
  gd::Report report;
  report.layers.push_back({{"hardware", gd::Status::ok, "1 GPU", {}, {}}, gd::Status::unknown, {}, {}});
  report.layers.push_back({{"kernel-module", gd::Status::ok, "", {}, {}}, gd::Status::unknown, {}, {}});
  report.layers.push_back({{"container", gd::Status::skip, "", {}, {}}, gd::Status::unknown, {}, {}});
  report.layers[1].findings.push_back({.rule = "r", .layer = "kernel-module", .severity = kernel_finding, .message = "m", .fix = "f", .reference = "s"});
  report.layers[2].findings.push_back({.rule = "r2", .layer = "container", .severity = gd::Severity::fail, .message = "m", .fix = "f", .reference = "s"});
  gd::settle_verdict(report);
  return report;
}

}  // namespace

TEST_CASE("the verdict is the worst layer, and the failing layer the lowest failing one") {
  auto report = two_layers(gd::Severity::fail);
  CHECK(report.verdict == gd::Status::fail);
  CHECK(report.failing_layer == "kernel-module");
  CHECK(report.layers[0].status == gd::Status::ok);
  CHECK(report.layers[2].status == gd::Status::fail);  // a finding makes even a skipped layer fail

  report = two_layers(gd::Severity::warn);
  CHECK(report.verdict == gd::Status::fail);
  CHECK(report.failing_layer == "container");
  CHECK(report.layers[1].status == gd::Status::warn);

  report = two_layers(gd::Severity::info);
  CHECK(report.layers[1].status == gd::Status::ok);  // info never changes a layer
}

TEST_CASE("the machine's action: the most disruptive of the verdict's own root causes; a warning or a consequence adds nothing to a failure") {
  auto report = two_layers(gd::Severity::warn);
  report.layers[1].findings[0].action = gd::Action::inspect_hardware;  // a warning
  report.layers[2].findings[0].action = gd::Action::fix_configuration;  // the failure
  CHECK(gd::report_action(report) == gd::Action::fix_configuration);
  report.layers[2].findings.push_back({.rule = "r3", .layer = "container", .severity = gd::Severity::fail, .message = "m",
                                       .action = gd::Action::reboot_node, .caused_by = "r2"});
  CHECK(gd::report_action(report) == gd::Action::fix_configuration);  // a consequence: its cause covers it
  report.layers[2].findings[1].caused_by.reset();
  CHECK(gd::report_action(report) == gd::Action::reboot_node);
  report.layers[2].findings.clear();
  gd::settle_verdict(report);  // only the warning is left: it gives the verdict, and its action
  CHECK(report.verdict == gd::Status::warn);
  CHECK(gd::report_action(report) == gd::Action::inspect_hardware);
  report.layers[1].findings.clear();
  gd::settle_verdict(report);
  CHECK(gd::report_action(report) == gd::Action::none);
}

TEST_CASE("a fact object prints as what tells repeats apart (a for_each rule's about, a prometheus label), never its whole JSON where one is there") {
  namespace json = boost::json;
  CHECK(gd::format_fact(json::parse(R"({"path": "/dev/nvidia0", "mode": "0600"})")) == "/dev/nvidia0");
  // A containerd configuration is told apart by its main file: its other facts change as gpudoctor learns more.
  CHECK(gd::format_fact(json::parse(R"({"config": "/etc/containerd/config.toml", "files": [], "version": 2})")) ==
        "/etc/containerd/config.toml");
  CHECK(gd::format_fact(json::parse(R"({"name": "nvidia", "config": "x"})")) == "nvidia");
  CHECK(gd::format_fact(json::parse(R"({"other": 1})")) == R"({"other":1})");
}
