// An image's report: host layers regrouped into the image's own, findings
// moved with their causes, the verdict settled again on the new layers.

#include "check/image_view.h"
#include "model/layers.h"

#include <doctest/doctest.h>

namespace {

gd::LayerReport layer(const std::string& id, gd::Status status, const std::string& summary) {
  gd::LayerReport out;
  out.facts.id = id;
  out.facts.status = status;
  out.facts.summary = summary;
  out.facts.set("marker", id, "/source/of/" + id);
  return out;
}

}  // namespace

TEST_CASE("an image's layers: target-host from hardware and kernel-module, image-config from container, no device nodes") {
  gd::Report report;
  for (const auto id : gd::k_layer_ids) report.layers.push_back(layer(std::string(id), gd::Status::ok, std::string(id) + " summary"));
  report.layers[3].facts.status = gd::Status::skip;  // device-nodes: an image has none
  // The host driver named is too old (a kernel-module fact) and the image's requirement fails because of it.
  gd::Finding cause{.rule = "require-unsatisfied", .layer = "container", .severity = gd::Severity::fail,
                    .message = "requirement not met", .fix = "fix", .reference = "src"};
  gd::Finding consequence{.rule = "driver-too-old-for-runtime", .layer = "cuda-runtime", .severity = gd::Severity::fail,
                          .message = "runtime too new", .fix = "fix", .reference = "src",
                          .caused_by = std::string("require-unsatisfied"), .cause_layer = "container"};
  report.layers[2].findings.push_back(cause);
  report.layers[5].findings.push_back(consequence);
  gd::settle_verdict(report);
  CHECK(report.failing_layer == std::optional<std::string>("container"));

  const gd::ContainerFacts container;
  gd::regroup_for_image(report, {container, false});
  CHECK(report.subject == "image");
  REQUIRE(report.layers.size() == gd::k_image_layer_ids.size());
  for (std::size_t i = 0; i < report.layers.size(); ++i) CHECK(report.layers[i].facts.id == gd::k_image_layer_ids[i]);
  const auto& target = report.layers[0];
  CHECK(target.facts.summary == "hardware summary; kernel-module summary");
  CHECK(target.facts.facts.at("hardware").as_object().at("marker").as_string() == "hardware");
  CHECK(target.facts.facts.at("kernel-module").as_object().at("marker").as_string() == "kernel-module");
  CHECK(target.facts.sources.at("kernel-module.marker") == "/source/of/kernel-module");
  // The cause moved to image-config, the consequence stays under cuda-runtime, naming its cause's new layer.
  REQUIRE(report.layers[1].findings.size() == 1);
  CHECK(report.layers[1].findings[0].layer == "image-config");
  REQUIRE(report.layers[3].findings.size() == 1);
  CHECK(report.layers[3].findings[0].cause_layer == "image-config");
  CHECK(report.failing_layer == std::optional<std::string>("image-config"));
  CHECK(report.layers[3].blocked_by == std::optional<std::string>("image-config"));
  CHECK(report.verdict == gd::Status::fail);
}

TEST_CASE("host layers map to the image's; the ones an image shares keep their name") {
  CHECK(gd::image_layer_of("hardware") == "target-host");
  CHECK(gd::image_layer_of("kernel-module") == "target-host");
  CHECK(gd::image_layer_of("container") == "image-config");
  CHECK(gd::image_layer_of("driver-libs") == "driver-libs");
  CHECK(gd::image_layer_of("application") == "application");
  for (const auto id : gd::k_layer_ids) {
    const auto mapped = gd::image_layer_of(std::string(id));
    CHECK(gd::is_layer_of(*gd::find_subject("image"), mapped));
  }
}

TEST_CASE("image-config's summary: the image's variables, and its CUDA requirement against the host named") {
  const auto regrouped = [](const gd::ContainerFacts& container, bool host_named) {
    gd::Report report;
    for (const auto id : gd::k_layer_ids) report.layers.push_back(layer(std::string(id), gd::Status::ok, ""));
    gd::settle_verdict(report);
    gd::regroup_for_image(report, {container, host_named});
    return report.layers[1].facts.summary;
  };
  gd::ContainerFacts container;
  CHECK(regrouped(container, false) ==
        "NVIDIA_VISIBLE_DEVICES=(unset: no GPU unless the run asks), NVIDIA_DRIVER_CAPABILITIES=(unset: utility,compute)");
  container.visible_devices.value = "all";
  container.driver_capabilities.value = "compute,utility";
  container.require.requested_cuda = "12.4";
  container.require.satisfied = false;
  CHECK(regrouped(container, false) == "NVIDIA_VISIBLE_DEVICES=all, NVIDIA_DRIVER_CAPABILITIES=compute,utility; requires CUDA 12.4");
  CHECK(regrouped(container, true) ==
        "NVIDIA_VISIBLE_DEVICES=all, NVIDIA_DRIVER_CAPABILITIES=compute,utility; requires CUDA 12.4 (the host named does not)");
  container.require.satisfied = true;
  CHECK(regrouped(container, true).ends_with("requires CUDA 12.4 (the host named meets it)"));
}
