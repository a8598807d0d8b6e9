#include "report/renderers.h"

#include "util/json_pretty.h"

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
                      {"fix", finding.fix},         {"reference", finding.reference}, {"about", finding.about}};
  object["caused_by"] = finding.caused_by ? json::value(json::object{{"rule", *finding.caused_by}, {"layer", finding.cause_layer}})
                                          : json::value(nullptr);
  return object;
}

}  // namespace

json::object report_to_json(const Report& report) {
  json::array layers;
  for (const auto& layer : report.layers) {
    json::array findings;
    for (const auto& finding : layer.findings) findings.push_back(finding_to_json(finding));
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
  top["system"] = report.system;
  top["layers"] = std::move(layers);
  return top;
}

std::string render_json(const Report& report) { return pretty_json(report_to_json(report)); }

}  // namespace gd
