#include "check/run_check.h"

#include "check/gpu_list.h"
#include "check/image_view.h"

#include "gpudoctor_config.h"
#include "model/layers.h"
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
auto run_contained(LayerId id, Probe probe, ProbeContext& context, Report& report) -> decltype(probe(context).facts) {
  std::string error;
  try {
    auto probed = probe(context);
    report.layers.push_back({to_layer_facts(enum_name(id), probed), Status::unknown, {}, {}});
    return std::move(probed.facts);
  } catch (const std::exception& caught) {
    error = caught.what();
  } catch (...) {
    error = "an unknown exception";
  }
  report.layers.push_back(probe_error_layer(enum_name(id), error));
  return {};
}

// A layer whose children were asked ahead (the kernel log, the device
// opens, the driver's answers) is finished after the layers above were read,
// while they ran: its answers replace the layer's first facts.
template <class Facts>
void finish_contained(LayerId id, Probed<Facts>& layer, void (*finish)(ProbeContext&, Probed<Facts>&), std::size_t index,
                      Facts& facts, ProbeContext& context, Report& report) {
  if (index >= report.layers.size() || report.layers[index].facts.id != layer_id(id) || report.layers[index].facts.facts.contains(k_probe_error_fact))
    return;
  std::string error;
  try {
    finish(context, layer);
    report.layers[index] = {to_layer_facts(enum_name(id), layer), Status::unknown, {}, {}};
    facts = layer.facts;
    return;
  } catch (const std::exception& caught) {
    error = caught.what();
  } catch (...) {
    error = "an unknown exception";
  }
  report.layers[index] = probe_error_layer(enum_name(id), error);
  facts = {};
}

// A probe kept to be finished: its index in the report, its first facts.
template <class Facts>
struct Unfinished {
  Probed<Facts> layer{};
  std::size_t index = 0;
};

template <class Facts>
Facts run_unfinished(LayerId id, Probed<Facts> (*probe)(ProbeContext&), Unfinished<Facts>& kept, ProbeContext& context,
                     Report& report) {
  kept.index = report.layers.size();
  return run_contained(id, [&](ProbeContext& c) { return kept.layer = probe(c); }, context, report);
}

LayerReport probe_error_layer(const char* id, const std::string& error) {
  LayerFacts facts{id, Status::unknown, "the probe stopped: " + printable(error, 200), {}, {}};
  facts.set(std::string(k_probe_error_fact), printable(error, 400));
  // info: the layer stays unknown, as it would with no evidence at all.
  Finding finding{.rule = "probe-error",
                  .layer = id,
                  .severity = Severity::info,
                  .message = "gpudoctor's " + std::string(id) +
                             " probe stopped with an error, so this layer was not examined: " + printable(error, 200),
                  .evidence = {{std::string(id) + "." + std::string(k_probe_error_fact), facts.facts[k_probe_error_fact], ""}},
                  .fix = "This is a bug in gpudoctor: please report it with `gpudoctor snapshot --output DIR` attached.",
                  .reference = "gpudoctor"};
  return {std::move(facts), Status::unknown, {std::move(finding)}, {}};
}

}  // namespace

Report run_check(Host& host, const RuleSet& rules, ProbeOptions options) {
  return run_check(host, CheckRules::whole(rules), options);
}

Report run_check(Host& host, const CheckRules& rules, ProbeOptions options) {
  const auto started = std::chrono::steady_clock::now();
  ProbeContext context{.host = host, .tables = rules.tables, .system = probe_system(host), .options = options};
  Report report;
  report.gpudoctor_version = GPUDOCTOR_VERSION;
  report.mode = enum_name(host.mode());
  context.system.image = options.image;
  // Bottom up, in k_layer_ids order: each probe reads the typed facts below it.
  Unfinished<KernelModuleFacts> kernel_module;
  Unfinished<ContainerFacts> container;
  Unfinished<DeviceNodesFacts> device_nodes;
  Unfinished<DriverLibsFacts> driver_libs;
  if (options.image) {
    // An image: the host it will run on is the one the user names, and it
    // has no devices and no container runtime of its own yet.
    context.hardware = run_contained(LayerId::hardware, probe_assumed_hardware, context, report);
    context.kernel_module = run_contained(LayerId::kernel_module, probe_assumed_kernel_module, context, report);
    // The container layer reads the image's variables (NVIDIA_REQUIRE_*, capabilities) against that host.
    context.container = run_contained(LayerId::container, probe_container, context, report);
    report.layers.push_back({{std::string(layer_id(LayerId::device_nodes)), Status::skip, "an image: no devices until it runs", {}, {}}, Status::skip, {}, {}});
  } else {
    context.hardware = run_contained(LayerId::hardware, probe_hardware, context, report);
    context.kernel_module = run_unfinished(LayerId::kernel_module, probe_kernel_module, kernel_module, context, report);
    context.container = run_unfinished(LayerId::container, probe_container, container, context, report);
    context.device_nodes = run_unfinished(LayerId::device_nodes, probe_device_nodes, device_nodes, context, report);
  }
  // What these layers asked ahead (dmesg, dockerd's GET /info, the device opens,
  // nvidia-smi and the driver probe) runs while the layers above them are read; each is
  // finished with its answers at the end, in layer order.
  context.driver_libs = run_unfinished(LayerId::driver_libs, probe_driver_libs, driver_libs, context, report);
  if (!options.gpu_table) {
    run_contained(LayerId::cuda_runtime, probe_cuda_runtime, context, report);
    run_contained(LayerId::application, probe_application, context, report);
  }
  // Read while the children asked ahead still run; a GPU table is not judged.
  const RuleSet* rule_set = options.gpu_table ? nullptr : &rules.rule_set();
  if (!options.image) {
    finish_contained(LayerId::kernel_module, kernel_module.layer, finish_kernel_module, kernel_module.index, context.kernel_module, context, report);
    finish_contained(LayerId::container, container.layer, finish_container, container.index, context.container, context, report);
    finish_contained(LayerId::device_nodes, device_nodes.layer, finish_device_nodes, device_nodes.index, context.device_nodes, context, report);
  }
  finish_contained(LayerId::driver_libs, driver_libs.layer, finish_driver_libs, driver_libs.index, context.driver_libs, context, report);
  report.system = to_fact_object(context.system);
  report.machine = {std::string(enum_name(context.system.platform)), context.system.kernel_release};
  if (!options.image) report.gpus = gpu_list(context.hardware, context.kernel_module, context.driver_libs);
  report.redacted = host.redactions();  // after the probes: what they read decides what was hidden
  if (options.gpu_table) return report;  // the facts that list the GPUs, not a diagnosis
  apply_rules(*rule_set, report);
  if (options.image) regroup_for_image(report, {context.container, context.kernel_module.version.has_value()});
  report.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace gd
