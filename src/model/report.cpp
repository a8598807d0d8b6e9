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

std::vector<FindingGroup> group_by_rule(const std::vector<Finding>& findings) {
  std::vector<FindingGroup> groups;
  for (const auto& finding : findings) {
    auto same = std::find_if(groups.begin(), groups.end(), [&](const FindingGroup& group) {
      return group.first->rule == finding.rule && !finding.about.empty();
    });
    if (same == groups.end()) groups.push_back({&finding, {}});
    else same->repeats.push_back(&finding);
  }
  return groups;
}

std::string joined_list(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

}  // namespace gd
