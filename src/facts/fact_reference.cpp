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
#include "model/layers.h"

#include <type_traits>

namespace gd {
namespace {

// The host's layers, bottom up, each with the struct of its facts.
template <class Visit>
void for_each_host_layer(Visit&& visit) {
  visit(LayerId::hardware, std::type_identity<HardwareFacts>{});
  visit(LayerId::kernel_module, std::type_identity<KernelModuleFacts>{});
  visit(LayerId::container, std::type_identity<ContainerFacts>{});
  visit(LayerId::device_nodes, std::type_identity<DeviceNodesFacts>{});
  visit(LayerId::driver_libs, std::type_identity<DriverLibsFacts>{});
  visit(LayerId::cuda_runtime, std::type_identity<CudaRuntimeFacts>{});
  visit(LayerId::application, std::type_identity<ApplicationFacts>{});
}

// A closed set's allowed values follow its meaning: rules may compare with these only.
std::string meaning(const FactDoc& doc) {
  if (doc.free_text) return doc.doc + ". Any text";
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
  docs.push_back({.path = std::string(k_unreadable_fact), .type = "list of object, optional", .doc = "input the probe could not trust", .values = {}});
  for (auto doc : describe_facts<Unreadable>()) {
    doc.path = std::string(k_unreadable_fact) + "[]." + doc.path;
    docs.push_back(std::move(doc));
  }
  docs.push_back({.path = std::string(k_probe_error_fact), .type = "string, optional", .doc = "the probe stopped with this error", .values = {}});
  return docs;
}

FactSchema host_fact_schema() {
  FactSchema schema;
  schema.layers["system"] = describe_facts<SystemFacts>();
  for_each_host_layer([&schema]<class Facts>(LayerId id, std::type_identity<Facts>) {
    schema.layers[std::string(layer_id(id))] = layer_docs<Facts>();
  });
  return schema;
}

std::string fact_reference_markdown() {
  std::string out;
  table(out, "system", "system.", describe_facts<SystemFacts>());
  for_each_host_layer([&out]<class Facts>(LayerId id, std::type_identity<Facts>) {
    const std::string name(layer_id(id));
    table(out, name, name + ".", describe_facts<Facts>());
  });
  out += "### every layer\n\n| fact | type | meaning |\n|---|---|---|\n";
  for (const auto& doc : describe_facts<Unreadable>())
    out += "| `LAYER." + std::string(k_unreadable_fact) + "[]." + doc.path + "` | " + doc.type + " | " + doc.doc + " |\n";
  out += "| `LAYER." + std::string(k_probe_error_fact) + "` | string, optional | the probe stopped with this error; the layer is unknown |\n";
  return out;
}

}  // namespace gd
