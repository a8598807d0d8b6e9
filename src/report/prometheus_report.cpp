// The report as Prometheus text exposition (format 0.0.4), for node_exporter's
// textfile collector: a fleet's dashboard and alerts read the verdict, each
// layer's status and each finding, one series each.

#include "report/renderers.h"

#include "util/text.h"

namespace gd {

namespace {

// Label values: backslash, double quote and newline escaped; the value is
// already printable ASCII, and cut, since it may come from the system.
std::string label(std::string_view text) {
  std::string out;
  for (char c : printable(text, 120)) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

constexpr Status k_statuses[] = {Status::ok, Status::warn, Status::fail, Status::skip, Status::unknown};

}  // namespace

std::string render_prometheus(const Report& report) {
  std::string out;
  out += "# HELP gpudoctor_ok 1 when no layer fails (warnings allowed), else 0.\n# TYPE gpudoctor_ok gauge\n";
  out += "gpudoctor_ok " + std::string(report.verdict == Status::fail ? "0" : "1") + "\n";
  out += "# HELP gpudoctor_verdict The verdict: 1 for the one that holds.\n# TYPE gpudoctor_verdict gauge\n";
  for (const auto status : {Status::ok, Status::warn, Status::fail})
    out += "gpudoctor_verdict{verdict=\"" + std::string(status_name(status)) + "\"} " + (report.verdict == status ? "1" : "0") + "\n";
  out += "# HELP gpudoctor_failing_layer The lowest layer that fails, when one does.\n# TYPE gpudoctor_failing_layer gauge\n";
  if (report.failing_layer) out += "gpudoctor_failing_layer{layer=\"" + label(*report.failing_layer) + "\"} 1\n";
  out += "# HELP gpudoctor_layer_status Each layer's status: 1 for the one that holds.\n# TYPE gpudoctor_layer_status gauge\n";
  for (const auto& layer : report.layers)
    for (const auto status : k_statuses)
      out += "gpudoctor_layer_status{layer=\"" + label(layer.facts.id) + "\",status=\"" + status_name(status) + "\"} " +
             (layer.status == status ? "1" : "0") + "\n";
  out += "# HELP gpudoctor_finding A finding of a rule (1 each; about names what a per-item rule is about; "
         "root_cause is 0 for consequences).\n# TYPE gpudoctor_finding gauge\n";
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings)
      out += "gpudoctor_finding{rule=\"" + label(finding.rule) + "\",layer=\"" + label(layer.facts.id) + "\",severity=\"" +
             severity_name(finding.severity) + "\",about=\"" + label(finding.about) + "\",root_cause=\"" +
             (finding.caused_by ? "0" : "1") + "\"} 1\n";
  out += "# HELP gpudoctor_info The gpudoctor version and how it looked.\n# TYPE gpudoctor_info gauge\n";
  out += "gpudoctor_info{version=\"" + label(report.gpudoctor_version) + "\",mode=\"" + label(report.mode) + "\"} 1\n";
  return out;
}

}  // namespace gd
