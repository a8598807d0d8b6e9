#include "rules/evaluator.h"

#include "rules/condition.h"
#include "rules/message_template.h"

namespace gd {
namespace json = boost::json;

namespace {

Finding make_finding(const Rule& rule, const FactView& view, const json::value* item = nullptr) {
  Finding finding{.rule = rule.id,
                  .layer = rule.layer,
                  .severity = rule.severity,
                  .message = render_template(rule.message, view),
                  .fix = render_template(rule.fix, view),
                  .reference = rule.source,
                  .about = item ? format_fact(*item) : std::string()};
  for (const auto& path : rule.evidence) {
    const auto* value = view.find(path);
    finding.evidence.push_back({path, value ? *value : json::value(nullptr), view.source_of(path)});
  }
  finding.quiet = rule.quiet;
  // One source must not fail a layer that other layers' evidence contradicts:
  // an unknown platform then reads as a warning saying what disagrees.
  for (const auto& disagreement : rule.disputed_by)
    if (evaluate_condition(disagreement.when, view)) finding.disputed_by.push_back(render_template(disagreement.says, view));
  if (!finding.disputed_by.empty()) {
    finding.severity = Severity::warn;
    finding.message += " Yet " + joined_list(finding.disputed_by) +
                       ": the layers disagree, as they do on a platform gpudoctor does not know, so this alone fails nothing.";
  }
  return finding;
}

// Marks each finding that a present finding explains, with the root of the
// chain (a consequence of a consequence names the first cause).
void mark_consequences(const RuleSet& rules, Report& report) {
  std::map<std::string, const Finding*> present;  // rule id -> its first finding
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings) present.emplace(finding.rule, &finding);
  std::map<std::string, const Finding*> cause_of;  // rule id -> the finding that explains it
  for (const auto& [id, finding] : present) {
    const Rule* rule = rules.find(id);
    if (!rule) continue;
    for (const auto& cause : rule->explained_by)
      if (const auto found = present.find(cause); found != present.end()) {
        cause_of.emplace(id, found->second);
        break;
      }
  }
  for (auto& layer : report.layers)
    for (auto& finding : layer.findings) {
      const Finding* cause = nullptr;
      std::string id = finding.rule;
      for (int depth = 0; depth < 16; ++depth) {  // bounded: rules may (wrongly) explain each other in a circle
        const auto next = cause_of.find(id);
        if (next == cause_of.end()) break;
        cause = next->second;
        id = cause->rule;
      }
      if (!cause || cause->rule == finding.rule) continue;
      finding.caused_by = cause->rule;
      finding.cause_layer = cause->layer;
    }
}

}  // namespace

void apply_rules(const RuleSet& rules, Report& report) {
  std::map<std::string, const LayerFacts*> layers;
  std::map<std::string, LayerReport*> by_id;
  for (auto& layer : report.layers) {
    layers[layer.facts.id] = &layer.facts;
    by_id[layer.facts.id] = &layer;
  }
  const FactView view(report.system, layers);
  for (const auto& rule : rules.rules) {
    if (rule.subject != report.subject) continue;
    auto target = by_id.find(rule.layer);
    if (target == by_id.end()) continue;
    if (rule.for_each.empty()) {
      if (evaluate_condition(rule.when, view)) target->second->findings.push_back(make_finding(rule, view));
      continue;
    }
    const auto* list = view.find(rule.for_each);
    if (!list || !list->is_array()) continue;
    for (const auto& item : list->get_array()) {
      const FactView item_view = view.with_item(item);
      if (evaluate_condition(rule.when, item_view)) target->second->findings.push_back(make_finding(rule, item_view, &item));
    }
  }
  mark_consequences(rules, report);
  settle_verdict(report);
}

}  // namespace gd
