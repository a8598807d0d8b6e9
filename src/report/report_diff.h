#pragma once
// `gpudoctor diff A B`: "works on node A, not on node B". Two reports
// (gpudoctor-report/1 documents, from snapshots or saved JSON) compared
// layer by layer, bottom up — the verdict, each layer's status, the
// findings only one side has, then the facts that differ — so the first
// difference shown is the one most likely to matter.

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace gd {

struct FactDifference {
  std::string path;  // "gpus.0.driver"
  std::string a, b;  // as shown; "(absent)" when one side lacks it
};

struct LayerDifference {
  std::string id;                      // a layer id, or "system"
  std::string status_a, status_b;      // equal when only findings or facts differ
  std::vector<std::string> only_a, only_b;  // findings: "rule (about)"
  std::vector<FactDifference> facts;
  std::size_t facts_not_listed = 0;     // beyond the cap per layer
};

struct ReportDiff {
  std::string verdict_a, verdict_b, failing_a, failing_b;
  std::vector<LayerDifference> layers;  // only those that differ, bottom up
};

inline constexpr std::size_t k_max_fact_differences = 40;  // per layer

ReportDiff diff_reports(const boost::json::object& a, const boost::json::object& b);
std::string render_diff_text(const ReportDiff& diff, const std::string& name_a, const std::string& name_b);
boost::json::object diff_to_json(const ReportDiff& diff, const std::string& name_a, const std::string& name_b);

}  // namespace gd
