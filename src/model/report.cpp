#include "model/report.h"

#include <algorithm>

namespace gd {

void settle_verdict(Report& report) {
  report.verdict = Status::ok;
  report.failing_layer.reset();
  for (auto& layer : report.layers) {
    // Status is ordered by badness, so a warning or failure always wins over
    // the probe's own ok, skip or unknown.
    Status worst = layer.facts.status;
    for (const auto& finding : layer.findings)
      if (finding.severity != Severity::info) worst = std::max(worst, status_for(finding.severity));
    layer.status = worst;
    if (worst == Status::fail && !report.failing_layer) report.failing_layer = layer.facts.id;
    if (worst == Status::fail || (worst == Status::warn && report.verdict != Status::fail)) report.verdict = worst;
  }
}

}  // namespace gd
