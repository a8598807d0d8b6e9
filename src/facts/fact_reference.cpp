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

// A closed set's allowed values follow its meaning: rules may compare with these only.
std::string meaning(const FactDoc& doc) {
  if (doc.values.empty()) return doc.doc;
  std::string out = doc.doc + ". One of:";
  for (std::size_t i = 0; i < doc.values.size(); ++i) out += (i ? ", `" : " `") + doc.values[i] + "`";
  return out;
}

void table(std::string& out, const std::string& title, const std::string& prefix, const std::vector<FactDoc>& docs) {
  out += "### " + title + "\n\n| fact | type | meaning |\n|---|---|---|\n";
  for (const auto& doc : docs) out += "| `" + prefix + doc.path + "` | " + doc.type + " | " + meaning(doc) + " |\n";
  out += "\n";
}

}  // namespace

template <class Facts>
std::vector<FactDoc> layer_docs() {
  auto docs = describe_facts<Facts>();
  docs.push_back({.path = "unreadable", .type = "list of object, optional", .doc = "input the probe could not trust", .values = {}});
  for (auto doc : describe_facts<Unreadable>()) {
    doc.path = "unreadable[]." + doc.path;
    docs.push_back(std::move(doc));
  }
  docs.push_back({.path = "probe_error", .type = "string, optional", .doc = "the probe stopped with this error", .values = {}});
  return docs;
}

FactSchema host_fact_schema() {
  FactSchema schema;
  schema.layers["system"] = describe_facts<SystemFacts>();
  schema.layers["hardware"] = layer_docs<HardwareFacts>();
  schema.layers["kernel-module"] = layer_docs<KernelModuleFacts>();
  schema.layers["container"] = layer_docs<ContainerFacts>();
  schema.layers["device-nodes"] = layer_docs<DeviceNodesFacts>();
  schema.layers["driver-libs"] = layer_docs<DriverLibsFacts>();
  schema.layers["cuda-runtime"] = layer_docs<CudaRuntimeFacts>();
  schema.layers["application"] = layer_docs<ApplicationFacts>();
  return schema;
}

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
