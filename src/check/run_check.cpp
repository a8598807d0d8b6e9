#include "check/run_check.h"

#include "check/image_view.h"

#include "gpudoctor_config.h"
#include "probes/application_probe.h"
#include "probes/assumed_host.h"
#include "probes/container_probe.h"
#include "probes/cuda_runtime_probe.h"
#include "probes/device_nodes_probe.h"
#include "probes/driver_libs_probe.h"
#include "probes/hardware_probe.h"
#include "probes/kernel_module_probe.h"
#include "probes/system_probe.h"
#include "rules/evaluator.h"
#include "util/text.h"

#include <chrono>

namespace gd {

namespace {

// Runs one probe. A probe that throws (a bug, or input nobody foresaw) costs
// its own layer, not the report: the layer is unknown with a finding naming
// the error, its facts stay default for the layers above, and they still
// get their turn.
LayerReport probe_error_layer(const char* id, const std::string& error);

template <class Probe>
auto run_contained(const char* id, Probe probe, ProbeContext& context, Report& report) -> decltype(probe(context).facts) {
  std::string error;
  try {
    auto probed = probe(context);
    report.layers.push_back({to_layer_facts(id, probed), Status::unknown, {}, {}});
    return std::move(probed.facts);
  } catch (const std::exception& caught) {
    error = caught.what();
  } catch (...) {
    error = "an unknown exception";
  }
  report.layers.push_back(probe_error_layer(id, error));
  return {};
}

// The driver-libs layer is finished after the layers above were read (its
// children ran beside them): its answers replace the layer's first facts.
void finish_contained(Probed<DriverLibsFacts>& layer, std::size_t index, ProbeContext& context, Report& report) {
  if (index >= report.layers.size() || report.layers[index].facts.id != "driver-libs" ||
      report.layers[index].facts.facts.contains("probe_error"))
    return;
  try {
    finish_driver_libs(context, layer);
    report.layers[index] = {to_layer_facts("driver-libs", layer), Status::unknown, {}, {}};
    context.driver_libs = layer.facts;
    return;
  } catch (const std::exception& caught) {
    report.layers[index] = probe_error_layer("driver-libs", caught.what());
  } catch (...) {
    report.layers[index] = probe_error_layer("driver-libs", "an unknown exception");
  }
  context.driver_libs = {};
}

LayerReport probe_error_layer(const char* id, const std::string& error) {
  LayerFacts facts{id, Status::unknown, "the probe stopped: " + printable(error, 200), {}, {}};
  facts.set("probe_error", printable(error, 400));
  // info: the layer stays unknown, as it would with no evidence at all.
  Finding finding{.rule = "probe-error",
                  .layer = id,
                  .severity = Severity::info,
                  .message = "gpudoctor's " + std::string(id) +
                             " probe stopped with an error, so this layer was not examined: " + printable(error, 200),
                  .evidence = {{std::string(id) + ".probe_error", facts.facts["probe_error"], ""}},
                  .fix = "This is a bug in gpudoctor: please report it with `gpudoctor snapshot --output DIR` attached.",
                  .reference = "gpudoctor"};
  return {std::move(facts), Status::unknown, {std::move(finding)}, {}};
}

}  // namespace

Report run_check(Host& host, const RuleSet& rules, ProbeOptions options) {
  const auto started = std::chrono::steady_clock::now();
  ProbeContext context{.host = host, .rules = rules, .system = probe_system(host), .options = options};
  Report report;
  report.gpudoctor_version = GPUDOCTOR_VERSION;
  report.mode = host_mode_name(host.mode());
  context.system.image = options.image;
  // Bottom up, in k_layer_ids order: each probe reads the typed facts below it.
  if (options.image) {
    // An image: the host it will run on is the one the user names, and it
    // has no devices and no container runtime of its own yet.
    context.hardware = run_contained("hardware", probe_assumed_hardware, context, report);
    context.kernel_module = run_contained("kernel-module", probe_assumed_kernel_module, context, report);
    // The container layer reads the image's variables (NVIDIA_REQUIRE_*, capabilities) against that host.
    context.container = run_contained("container", probe_container, context, report);
    report.layers.push_back({{"device-nodes", Status::skip, "an image: no devices until it runs", {}, {}}, Status::skip, {}, {}});
  } else {
    context.hardware = run_contained("hardware", probe_hardware, context, report);
    context.kernel_module = run_contained("kernel-module", probe_kernel_module, context, report);
    context.container = run_contained("container", probe_container, context, report);
    context.device_nodes = run_contained("device-nodes", probe_device_nodes, context, report);
  }
  // The driver-libs layer starts the driver's children; they run while the
  // layers above are read, and the layer is finished with their answers.
  Probed<DriverLibsFacts> driver_libs;
  const std::size_t driver_libs_index = report.layers.size();
  context.driver_libs = run_contained("driver-libs", [&driver_libs](ProbeContext& c) { return driver_libs = probe_driver_libs(c); },
                                      context, report);
  if (!options.gpu_table) {
    run_contained("cuda-runtime", probe_cuda_runtime, context, report);
    run_contained("application", probe_application, context, report);
  }
  finish_contained(driver_libs, driver_libs_index, context, report);
  report.system = to_fact_object(context.system);
  report.redacted = host.redactions();  // after the probes: what they read decides what was hidden
  if (options.gpu_table) return report;  // the facts that list the GPUs, not a diagnosis
  apply_rules(rules, report);
  if (options.image) regroup_for_image(report);
  report.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace gd
