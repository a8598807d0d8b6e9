#include "check/run_check.h"

#include "gpudoctor_config.h"
#include "model/layers.h"
#include "probes/container_probe.h"
#include "probes/cuda_runtime_probe.h"
#include "probes/device_nodes_probe.h"
#include "probes/driver_libs_probe.h"
#include "probes/hardware_probe.h"
#include "probes/kernel_module_probe.h"
#include "probes/system_probe.h"
#include "rules/evaluator.h"
#include "util/text.h"

namespace gd {

namespace {

using Probe = LayerFacts (*)(ProbeContext&);

// Layers whose probes are not written yet still appear, as unknown, so the
// report's shape never changes under its readers.
LayerFacts not_probed(std::string_view id) {
  return {std::string(id), Status::unknown, "not examined by this version of gpudoctor", {}, {}};
}

// A probe that throws (a bug, or input nobody foresaw) costs its own layer,
// not the report: the layer becomes unknown with a finding naming the error,
// and the layers above still get their turn.
LayerFacts contained(std::string_view id, Probe probe, ProbeContext& context, std::vector<Finding>& failures) {
  std::string error;
  try {
    return probe(context);
  } catch (const std::exception& caught) {
    error = caught.what();
  } catch (...) {
    error = "an unknown exception";
  }
  LayerFacts facts{std::string(id), Status::unknown, "the probe stopped: " + printable(error, 200), {}, {}};
  facts.set("probe_error", printable(error, 400));
  // info: the layer stays unknown, as it would with no evidence at all.
  failures.push_back({"probe-error", std::string(id), Severity::info,
                      "gpudoctor's " + std::string(id) + " probe stopped with an error, so this layer was not examined: " +
                          printable(error, 200),
                      {{std::string(id) + ".probe_error", facts.facts["probe_error"], ""}},
                      "This is a bug in gpudoctor: please report it with `gpudoctor snapshot --output DIR` attached.",
                      "gpudoctor"});
  return facts;
}

}  // namespace

Report run_check(Host& host, const RuleSet& rules) {
  ProbeContext context{host, rules, probe_system(host), {}};
  const std::map<std::string_view, Probe> probes = {
      {"hardware", probe_hardware},
      {"kernel-module", probe_kernel_module},
      {"container", probe_container},
      {"device-nodes", probe_device_nodes},
      {"driver-libs", probe_driver_libs},
      {"cuda-runtime", probe_cuda_runtime},
  };
  Report report;
  report.gpudoctor_version = GPUDOCTOR_VERSION;
  report.mode = host_mode_name(host.mode());
  for (auto id : k_layer_ids) {
    const auto probe = probes.find(id);
    std::vector<Finding> failures;
    LayerFacts facts = probe == probes.end() ? not_probed(id) : contained(id, probe->second, context, failures);
    context.layers[facts.id] = facts;
    report.layers.push_back({std::move(facts), Status::unknown, std::move(failures)});
  }
  report.system = std::move(context.system);
  apply_rules(rules, report);
  return report;
}

}  // namespace gd
