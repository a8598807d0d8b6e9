#pragma once
// The diagnosis: facts per layer, the findings the rules drew from them, and
// the verdict. Renderers turn this into text, JSON or markdown.

#include "model/facts.h"
#include "model/status.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gd {

struct Evidence {
  std::string fact;   // "kernel-module.version"
  boost::json::value value;
  std::string source;  // "/proc/driver/nvidia/version"; empty when derived
};

struct Finding {
  std::string rule;
  std::string layer;
  Severity severity = Severity::info;
  std::string message;
  std::vector<Evidence> evidence;
  std::string fix;
  std::string reference;  // where the rule's knowledge comes from
  std::string about;      // for_each rules: the item it is about ("/dev/nvidia-uvm"); else empty
};

// Findings of one layer grouped by rule, in order of first appearance: the
// first of each rule in full, the others only by what they are about.
struct FindingGroup {
  const Finding* first;
  std::vector<const Finding*> repeats;
};
std::vector<FindingGroup> group_by_rule(const std::vector<Finding>& findings);

// "a", "a and b", "a, b and c"
std::string joined_list(const std::vector<std::string>& items);

struct LayerReport {
  LayerFacts facts;
  Status status = Status::unknown;
  std::vector<Finding> findings;
};

struct Report {
  std::string gpudoctor_version;
  std::string subject = "host";  // what was diagnosed (model/layers.h)
  std::string mode;              // live, root, replay
  boost::json::object system;
  std::vector<LayerReport> layers;  // in k_layer_ids order
  Status verdict = Status::ok;
  std::optional<std::string> failing_layer;
};

// Sets each layer's status from its findings, then the verdict and failing layer.
void settle_verdict(Report& report);

}  // namespace gd
