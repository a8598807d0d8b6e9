#include "report/renderers.h"

#include "util/json_pretty.h"
#include "util/text.h"

#include <utility>
#include <vector>

namespace gd {
namespace json = boost::json;

namespace {

json::object finding_to_json(const Finding& finding) {
  json::array evidence;
  for (const auto& item : finding.evidence) {
    json::object entry{{"fact", item.fact}, {"value", item.value}};
    if (!item.source.empty()) entry["source"] = item.source;
    evidence.push_back(std::move(entry));
  }
  json::object object{{"rule", finding.rule},       {"severity", severity_name(finding.severity)},
                      {"message", finding.message}, {"evidence", std::move(evidence)},
                      {"fix", finding.fix},         {"action", enum_name(finding.action)},
                      {"source", finding.reference}, {"about", finding.about}};
  object["reference"] = finding.reference;  // the same, by its first name: gpudoctor-report/1 readers keep it
  object["caused_by"] = finding.caused_by ? json::value(json::object{{"rule", *finding.caused_by}, {"layer", finding.cause_layer}})
                                          : json::value(nullptr);
  if (!finding.disputed_by.empty()) {
    json::array disputed;
    for (const auto& says : finding.disputed_by) disputed.push_back(json::string(says));
    object["disputed_by"] = std::move(disputed);
  }
  if (finding.outcome)
    object["outcome"] = json::object{{"predicts", finding.outcome->predicts}, {"observed", enum_name(finding.outcome->observed)}};
  return object;
}

}  // namespace

json::object report_to_json(const Report& report) {
  json::array layers;
  for (const auto& layer : report.layers) {
    json::array findings;
    // Root causes first, then their consequences: a reader of the failing layer meets the cause first.
    for (const Finding* finding : causes_first(layer.findings)) findings.push_back(finding_to_json(*finding));
    json::object sources;
    for (const auto& [fact, source] : layer.facts.sources) sources[fact] = source;
    layers.push_back(json::object{{"id", layer.facts.id},
                                  {"status", status_name(layer.status)},
                                  {"summary", layer.facts.summary},
                                  {"facts", layer.facts.facts},
                                  {"sources", std::move(sources)},
                                  {"findings", std::move(findings)},
                                  {"blocked_by", layer.blocked_by ? json::value(*layer.blocked_by) : json::value(nullptr)}});
  }
  json::object top{{"schema", k_report_schema},
                   {"gpudoctor", json::object{{"version", report.gpudoctor_version}}},
                   {"subject", report.subject},
                   {"mode", report.mode},
                   {"verdict", status_name(report.verdict)}};
  top["failing_layer"] = report.failing_layer ? json::value(*report.failing_layer) : json::value(nullptr);
  top["action"] = enum_name(report_action(report));
  // The closing line, for machines: the root cause, never a consequence; null when healthy.
  const Finding* headline = report.verdict == Status::ok ? nullptr : headline_finding(report);
  top["headline"] = headline ? json::value(json::object{{"rule", headline->rule},
                                                        {"layer", headline->layer},
                                                        {"severity", severity_name(headline->severity)},
                                                        {"message", headline->message},
                                                        {"fix", headline->fix},
                                                        {"action", enum_name(headline->action)},
                                                        {"line", verdict_line(report)}})
                             : json::value(nullptr);
  top["system"] = report.system;
  // The live evidence each prediction was weighed against (rules/tables/outcomes.json).
  json::object outcomes;
  for (const auto& seen : report.outcomes)
    outcomes[seen.id] = json::object{{"observed", enum_name(seen.observed)}, {"says", seen.says}};
  top["outcomes"] = std::move(outcomes);
  if (report.redacted) top["redacted"] = json::array(report.redacted->begin(), report.redacted->end());
  top["layers"] = std::move(layers);
  return top;
}

// Values read from the system may hold any bytes; a report is valid UTF-8.
void make_valid_utf8(json::value& value) {
  if (value.is_string()) {
    auto& text = value.get_string();
    const auto fixed = valid_utf8(text);
    if (fixed.size() != text.size()) text = fixed;
  } else if (value.is_array()) {
    for (auto& element : value.get_array()) make_valid_utf8(element);
  } else if (value.is_object()) {
    auto& object = value.get_object();
    std::vector<std::pair<std::string, json::value>> renamed;
    for (auto& [key, element] : object) {
      make_valid_utf8(element);
      if (valid_utf8(key).size() != key.size()) renamed.emplace_back(std::string(key), json::value());
    }
    for (auto& [key, unused] : renamed) {
      json::value moved = std::move(object.at(key));
      object.erase(key);
      object[valid_utf8(key)] = std::move(moved);
    }
  }
}

std::string render_json(const Report& report, JsonLayout layout) {
  json::value document = report_to_json(report);
  make_valid_utf8(document);
  return layout == JsonLayout::compact ? compact_json(document) : pretty_json(document);
}

}  // namespace gd
