#include "probes/probe_context.h"

#include "util/text.h"

namespace gd {
namespace json = boost::json;

const json::object& ProbeContext::facts_of(const std::string& layer) const {
  static const json::object empty;
  const auto found = layers.find(layer);
  return found == layers.end() ? empty : found->second.facts;
}

std::string ProbeContext::platform() const {
  const auto* value = system.if_contains("platform");
  return value && value->is_string() ? std::string(value->get_string()) : "linux";
}

bool fact_is_true(const json::object& facts, const char* key) {
  const auto* value = facts.if_contains(key);
  return value && value->is_bool() && value->as_bool();
}

void note_unreadable(LayerFacts& layer, const std::string& path, const std::string& problem, const std::string& value) {
  auto& list = layer.facts["unreadable"];
  if (!list.is_array()) list = json::array();
  json::object entry{{"path", path}, {"problem", problem}};
  if (!value.empty()) entry["value"] = printable(value, 120);
  list.get_array().push_back(std::move(entry));
}

}  // namespace gd
