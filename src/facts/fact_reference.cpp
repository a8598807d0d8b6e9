#include "facts/fact_reference.h"

#include "facts/application_facts.h"
#include "facts/container_facts.h"
#include "facts/cuda_runtime_facts.h"
#include "facts/device_nodes_facts.h"
#include "facts/driver_libs_facts.h"
#include "facts/hardware_facts.h"
#include "facts/kernel_module_facts.h"
#include "facts/probe_notes.h"
#include "facts/system_facts.h"

namespace gd {
namespace {

void table(std::string& out, const std::string& title, const std::string& prefix, const std::vector<FactDoc>& docs) {
  out += "### " + title + "\n\n| fact | type | meaning |\n|---|---|---|\n";
  for (const auto& doc : docs) out += "| `" + prefix + doc.path + "` | " + doc.type + " | " + doc.doc + " |\n";
  out += "\n";
}

}  // namespace

std::string fact_reference_markdown() {
  std::string out;
  table(out, "system", "system.", describe_facts<SystemFacts>());
  table(out, "hardware", "hardware.", describe_facts<HardwareFacts>());
  table(out, "kernel-module", "kernel-module.", describe_facts<KernelModuleFacts>());
  table(out, "container", "container.", describe_facts<ContainerFacts>());
  table(out, "device-nodes", "device-nodes.", describe_facts<DeviceNodesFacts>());
  table(out, "driver-libs", "driver-libs.", describe_facts<DriverLibsFacts>());
  table(out, "cuda-runtime", "cuda-runtime.", describe_facts<CudaRuntimeFacts>());
  table(out, "application", "application.", describe_facts<ApplicationFacts>());
  out += "### every layer\n\n| fact | type | meaning |\n|---|---|---|\n";
  for (const auto& doc : describe_facts<Unreadable>())
    out += "| `LAYER.unreadable[]." + doc.path + "` | " + doc.type + " | " + doc.doc + " |\n";
  out += "| `LAYER.probe_error` | string, optional | the probe stopped with this error; the layer is unknown |\n";
  return out;
}

}  // namespace gd
