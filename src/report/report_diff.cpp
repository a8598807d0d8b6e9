#include "report/report_diff.h"

#include "model/fact_text.h"
#include "util/json_fields.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <set>

namespace gd {
namespace json = boost::json;

namespace {

std::string text_of(const json::object& object, std::string_view key) {
  return printable(string_field(object, key), 200);
}

// Two fact trees compared together: objects key by key, lists element by
// element, and a subtree only one side has shown once, by what names it.
void compare(const json::value* a, const json::value* b, const std::string& path, std::vector<FactDifference>& out) {
  if (out.size() > 100000) return;  // bounded, whatever the reports hold
  const auto shown = [](const json::value* value) { return value ? format_fact(*value) : std::string("(absent)"); };
  if (a && b && a->is_object() && b->is_object()) {
    std::set<std::string> keys;
    for (const auto& [key, value] : a->get_object()) keys.emplace(key);
    for (const auto& [key, value] : b->get_object()) keys.emplace(key);
    for (const auto& key : keys)
      compare(a->get_object().if_contains(key), b->get_object().if_contains(key), path.empty() ? key : path + "." + key, out);
    return;
  }
  if (a && b && a->is_array() && b->is_array()) {
    const auto& la = a->get_array();
    const auto& lb = b->get_array();
    for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i)
      compare(i < la.size() ? &la[i] : nullptr, i < lb.size() ? &lb[i] : nullptr, path + "." + std::to_string(i), out);
    return;
  }
  if (a && b && *a == *b) return;
  if (!a && !b) return;
  out.push_back({path, shown(a), shown(b)});
}

std::set<std::string> finding_names(const json::object& layer) {
  std::set<std::string> names;
  const auto* findings = layer.if_contains("findings");
  if (!findings || !findings->is_array()) return names;
  for (const auto& finding : findings->get_array()) {
    if (!finding.is_object()) continue;
    const auto about = text_of(finding.get_object(), "about");
    names.insert(text_of(finding.get_object(), "rule") + (about.empty() ? "" : " (" + about + ")"));
  }
  return names;
}

std::map<std::string, const json::object*> layers_of(const json::object& report, std::vector<std::string>& order) {
  std::map<std::string, const json::object*> layers;
  const auto* list = report.if_contains("layers");
  if (!list || !list->is_array()) return layers;
  for (const auto& layer : list->get_array()) {
    if (!layer.is_object()) continue;
    const auto id = text_of(layer.get_object(), "id");
    if (layers.emplace(id, &layer.get_object()).second && std::find(order.begin(), order.end(), id) == order.end())
      order.push_back(id);
  }
  return layers;
}

void compare_facts(const json::value* a, const json::value* b, LayerDifference& out) {
  std::vector<FactDifference> all;
  compare(a, b, "", all);
  // Shallow facts first (a layer's own verdicts: init_result, version), then nested ones.
  std::stable_sort(all.begin(), all.end(), [](const FactDifference& x, const FactDifference& y) {
    return std::count(x.path.begin(), x.path.end(), '.') < std::count(y.path.begin(), y.path.end(), '.');
  });
  for (auto& fact : all) {
    if (out.facts.size() < k_max_fact_differences) out.facts.push_back(std::move(fact));
    else ++out.facts_not_listed;
  }
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

ReportDiff diff_reports(const json::object& a, const json::object& b) {
  ReportDiff diff;
  diff.verdict_a = text_of(a, "verdict");
  diff.verdict_b = text_of(b, "verdict");
  diff.failing_a = text_of(a, "failing_layer");
  diff.failing_b = text_of(b, "failing_layer");
  std::vector<std::string> order;
  const auto left = layers_of(a, order), right = layers_of(b, order);
  for (const auto& id : order) {
    LayerDifference layer;
    layer.id = id;
    const auto l = left.find(id), r = right.find(id);
    const json::object* la = l == left.end() ? nullptr : l->second;
    const json::object* lb = r == right.end() ? nullptr : r->second;
    layer.status_a = la ? text_of(*la, "status") : "(absent)";
    layer.status_b = lb ? text_of(*lb, "status") : "(absent)";
    const auto fa = la ? finding_names(*la) : std::set<std::string>{}, fb = lb ? finding_names(*lb) : std::set<std::string>{};
    for (const auto& name : fa)
      if (!fb.count(name)) layer.only_a.push_back(name);
    for (const auto& name : fb)
      if (!fa.count(name)) layer.only_b.push_back(name);
    compare_facts(la ? la->if_contains("facts") : nullptr, lb ? lb->if_contains("facts") : nullptr, layer);
    if (layer.status_a != layer.status_b || !layer.only_a.empty() || !layer.only_b.empty() || !layer.facts.empty())
      diff.layers.push_back(std::move(layer));
  }
  LayerDifference system;
  system.id = "system";
  system.status_a = system.status_b = "";
  compare_facts(a.if_contains("system"), b.if_contains("system"), system);
  if (!system.facts.empty()) diff.layers.push_back(std::move(system));
  return diff;
}

std::string render_diff_text(const ReportDiff& diff, const std::string& name_a, const std::string& name_b) {
  auto verdict = [](const std::string& verdict, const std::string& failing) {
    return verdict + (failing.empty() ? "" : " at " + failing);
  };
  std::string out = "A: " + printable(name_a, 200) + "\nB: " + printable(name_b, 200) + "\n\n";
  out += "verdict: A " + verdict(diff.verdict_a, diff.failing_a) + ", B " + verdict(diff.verdict_b, diff.failing_b) + "\n";
  if (diff.layers.empty()) return out + "\nThe two reports agree on every layer, finding and fact.\n";
  for (const auto& layer : diff.layers) {
    out += "\n" + layer.id;
    if (layer.status_a != layer.status_b) out += ": A " + layer.status_a + ", B " + layer.status_b;
    out += "\n";
    if (!layer.only_a.empty()) out += "  only in A: " + joined(layer.only_a) + "\n";
    if (!layer.only_b.empty()) out += "  only in B: " + joined(layer.only_b) + "\n";
    for (const auto& fact : layer.facts) out += "  " + fact.path + ": A " + fact.a + " | B " + fact.b + "\n";
    if (layer.facts_not_listed) out += "  ... " + std::to_string(layer.facts_not_listed) + " more facts differ\n";
  }
  return out;
}

namespace {

// JSON says "nothing" as null: no failing layer, no status (the system
// entry), a fact one side lacks.
json::value or_null(const std::string& text) {
  if (text.empty() || text == "(absent)") return nullptr;
  return json::string(text);
}

}  // namespace

json::object diff_to_json(const ReportDiff& diff, const std::string& name_a, const std::string& name_b) {
  json::array layers;
  for (const auto& layer : diff.layers) {
    json::array facts;
    for (const auto& fact : layer.facts) facts.push_back(json::object{{"path", fact.path}, {"a", or_null(fact.a)}, {"b", or_null(fact.b)}});
    json::array only_a(layer.only_a.begin(), layer.only_a.end()), only_b(layer.only_b.begin(), layer.only_b.end());
    layers.push_back(json::object{{"id", layer.id},         {"status_a", or_null(layer.status_a)}, {"status_b", or_null(layer.status_b)},
                                  {"only_a", std::move(only_a)}, {"only_b", std::move(only_b)}, {"facts", std::move(facts)},
                                  {"facts_not_listed", layer.facts_not_listed}});
  }
  return json::object{{"schema", "gpudoctor-diff/1"},
                      {"a", json::object{{"name", name_a}, {"verdict", diff.verdict_a}, {"failing_layer", or_null(diff.failing_a)}}},
                      {"b", json::object{{"name", name_b}, {"verdict", diff.verdict_b}, {"failing_layer", or_null(diff.failing_b)}}},
                      {"layers", std::move(layers)}};
}

}  // namespace gd
