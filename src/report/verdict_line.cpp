#include "report/renderers.h"

namespace gd {

// The closing line every format ends with: what a user acts on and pastes
// into a ticket.
std::string verdict_line(const Report& report) {
  if (report.verdict == Status::ok) return "OK: every layer that could be checked is healthy.";
  for (const auto& layer : report.layers) {
    if (report.verdict == Status::fail && layer.facts.id != report.failing_layer) continue;
    for (const auto& finding : layer.findings) {
      if (status_for(finding.severity) != report.verdict) continue;
      return std::string(report.verdict == Status::fail ? "FAIL" : "WARN") + " at " + layer.facts.id + ": " +
             finding.message;
    }
  }
  return std::string(status_name(report.verdict));
}

}  // namespace gd
