#include "model/report.h"

#include <algorithm>

namespace gd {

void settle_verdict(Report& report) {
  report.verdict = Status::ok;
  report.failing_layer.reset();
  std::optional<std::string> lowest_failing;
  for (auto& layer : report.layers) {
    // Status is ordered by badness, so a warning or failure always wins over
    // the probe's own ok, skip or unknown.
    Status worst = layer.facts.status;
    bool any_problem = false, any_root = false;
    for (const auto& finding : layer.findings) {
      if (finding.severity == Severity::info) continue;
      worst = std::max(worst, status_for(finding.severity));
      any_problem = true;
      any_root = any_root || !finding.caused_by;
      if (finding.severity == Severity::fail && !finding.caused_by && !report.failing_layer)
        report.failing_layer = layer.facts.id;
    }
    layer.status = worst;
    layer.blocked_by.reset();
    if (any_problem && !any_root)
      for (const auto& finding : layer.findings)
        if (finding.caused_by && finding.severity != Severity::info) {
          layer.blocked_by = finding.cause_layer;
          break;
        }
    if (worst == Status::fail && !lowest_failing) lowest_failing = layer.facts.id;
    if (worst == Status::fail || (worst == Status::warn && report.verdict != Status::fail)) report.verdict = worst;
  }
  // A failure whose every cause is itself explained away cannot happen with
  // sound rules; the lowest failing layer is then the best answer left.
  if (report.verdict == Status::fail && !report.failing_layer) report.failing_layer = lowest_failing;
}

const Finding* headline_finding(const Report& report) {
  if (report.verdict == Status::ok) return nullptr;
  const Finding* fallback = nullptr;
  for (const auto& layer : report.layers) {
    if (report.verdict == Status::fail && layer.facts.id != report.failing_layer) continue;
    for (const auto& finding : layer.findings) {
      if (status_for(finding.severity) != report.verdict) continue;
      if (!finding.caused_by) return &finding;
      if (!fallback) fallback = &finding;
    }
  }
  return fallback;
}

Action report_action(const Report& report) {
  Action strongest = Action::none;
  if (report.verdict == Status::ok) return strongest;
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings)
      if (status_for(finding.severity) == report.verdict && !finding.caused_by) strongest = std::max(strongest, finding.action);
  return strongest;
}

std::vector<const Finding*> causes_first(const std::vector<Finding>& findings) {
  std::vector<const Finding*> ordered;
  for (const auto& finding : findings) ordered.push_back(&finding);
  std::stable_partition(ordered.begin(), ordered.end(), [](const Finding* finding) { return !finding->caused_by; });
  return ordered;
}

std::vector<FindingGroup> group_by_rule(const std::vector<Finding>& findings) {
  std::vector<FindingGroup> groups;
  for (const auto* pointer : causes_first(findings)) {
    const Finding& finding = *pointer;
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
