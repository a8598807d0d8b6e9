#include "rules/evaluator.h"

#include "rules/condition.h"
#include "rules/message_template.h"

#include <algorithm>
#include <set>

namespace gd {
namespace json = boost::json;

namespace {

// Said of a prediction the live evidence contradicts, when its rule has no
// sentence of its own for whom the problem still hurts.
constexpr const char* k_contradicted =
    "the files predicted a failure that did not happen to this run, so this alone fails nothing; it may still hurt "
    "other users, other containers or a later start";

// What this run saw of each outcome rules predict, as the facts "outcome.ID"
// (works, fails or unknown) that conditions may read, and in the report.
LayerFacts observe_outcomes(const RuleSet& rules, const FactView& view, Report& report) {
  LayerFacts facts;
  facts.id = "outcome";
  report.outcomes.clear();
  for (const auto& outcome : rules.outcomes) {
    if (!outcome.observable()) continue;
    ReportOutcome seen{.id = outcome.id, .observed = Observed::unknown, .says = {}};
    if (evaluate_condition(*outcome.works, view)) {
      seen.observed = Observed::works;
      seen.says = render_template(outcome.works_says, view);
    } else if (evaluate_condition(*outcome.fails, view)) {
      seen.observed = Observed::fails;
      seen.says = render_template(outcome.fails_says, view);
    }
    facts.facts[outcome.id] = enum_name(seen.observed);
    report.outcomes.push_back(std::move(seen));
  }
  return facts;
}

const ReportOutcome* seen_of(const Report& report, std::string_view id) {
  for (const auto& seen : report.outcomes)
    if (seen.id == id) return &seen;
  return nullptr;
}

// A failure is a prediction; the run's own live evidence outranks it. Where
// the outcome it predicts was seen working, the finding becomes a warning
// that says so and whom the problem will still hurt.
void weigh_against_live_evidence(const Rule& rule, const FactView& view, const Report& report, Finding& finding) {
  const auto chosen = std::find_if(rule.predicts.begin(), rule.predicts.end(), [&view](const Prediction& prediction) {
    return !prediction.when || evaluate_condition(*prediction.when, view);
  });
  if (chosen == rule.predicts.end()) return;
  const ReportOutcome* seen = seen_of(report, chosen->outcome);
  finding.outcome = FindingOutcome{.predicts = chosen->outcome, .observed = seen ? seen->observed : Observed::unknown};
  if (finding.severity != Severity::fail) return;
  if (!seen || seen->observed == Observed::unknown) {
    // No live evidence: facts may still show the failure will not reach this caller.
    for (const auto& spared : rule.spared_when)
      if (evaluate_condition(spared.when, view)) {
        finding.severity = Severity::warn;
        finding.message += " Yet " + render_template(spared.says, view, &rule.phrases) + ".";
        return;
      }
    return;
  }
  if (seen->observed != Observed::works) return;
  finding.severity = Severity::warn;
  finding.message += " Yet " + seen->says + ": " + (rule.if_works.empty() ? std::string(k_contradicted) : render_template(rule.if_works, view, &rule.phrases)) + ".";
}

// The rule's action, or the one its fact carries (an Xid's table row).
Action action_of(const Rule& rule, const FactView& view) {
  if (rule.action_fact.empty()) return rule.action;
  const auto* value = view.find(rule.action_fact);
  const auto carried = value && value->is_string() ? parse_action(value->get_string()) : std::nullopt;
  return carried.value_or(rule.action);
}

Finding make_finding(const Rule& rule, const FactView& view, const Report& report, const json::value* item = nullptr) {
  Finding finding{.rule = rule.id,
                  .layer = rule.layer,
                  .severity = rule.severity,
                  .message = render_template(rule.message, view, &rule.phrases),
                  .fix = render_template(rule.fix, view, &rule.phrases),
                  .reference = rule.source,
                  .about = item ? format_fact(*item) : std::string()};
  for (const auto& path : rule.evidence) {
    const auto* value = view.find(path);
    finding.evidence.push_back({path, value ? *value : json::value(nullptr), view.source_of(path)});
  }
  finding.quiet = rule.quiet;
  finding.unmet_request = rule.unmet_request;
  finding.action = action_of(rule, view);
  // One source must not fail a layer that other layers' evidence contradicts:
  // an unknown platform then reads as a warning saying what disagrees.
  for (const auto& disagreement : rule.disputed_by)
    if (evaluate_condition(disagreement.when, view)) finding.disputed_by.push_back(render_template(disagreement.says, view, &rule.phrases));
  if (!finding.disputed_by.empty()) {
    finding.severity = Severity::warn;
    finding.message += " Yet " + joined_list(finding.disputed_by) +
                       ": the layers disagree, as they do on a platform gpudoctor does not know, so this alone fails nothing.";
  }
  weigh_against_live_evidence(rule, view, report, finding);
  return finding;
}

// A rule marked unless_explained reports a live failure that no other
// failure predicted: where one did, its finding goes.
void drop_explained_live_failures(const RuleSet& rules, Report& report) {
  std::set<std::string> predicted;  // outcomes some other failure predicts
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings) {
      const Rule* rule = rules.find(finding.rule);
      if (finding.severity == Severity::fail && finding.outcome && rule && !rule->unless_explained)
        predicted.insert(finding.outcome->predicts);
    }
  for (auto& layer : report.layers)
    std::erase_if(layer.findings, [&](const Finding& finding) {
      const Rule* rule = rules.find(finding.rule);
      return rule && rule->unless_explained && finding.outcome && predicted.count(finding.outcome->predicts);
    });
}

// Marks each finding that a present finding explains, with the root of the
// chain (a consequence of a consequence names the first cause). A cause
// explains only what is no worse than itself: a warning (a failure the live
// evidence contradicted) cannot be the reason for a failure.
void mark_consequences(const RuleSet& rules, Report& report) {
  std::map<std::string, const Finding*> present;  // rule id -> its first finding
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings) present.emplace(finding.rule, &finding);
  std::map<std::string, const Finding*> cause_of;  // rule id -> the finding that explains it
  for (const auto& [id, finding] : present) {
    const Rule* rule = rules.find(id);
    if (!rule) continue;
    for (const auto& cause : rule->explained_by)
      if (const auto found = present.find(cause); found != present.end() && found->second->severity >= finding->severity) {
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
  FactLayers layers;
  std::map<std::string, LayerReport*> by_id;
  for (auto& layer : report.layers) {
    layers[layer.facts.id] = &layer.facts;
    by_id[layer.facts.id] = &layer;
  }
  const LayerFacts outcomes = observe_outcomes(rules, FactView(report.system, layers), report);
  layers[outcomes.id] = &outcomes;
  const FactView view(report.system, layers);
  for (const auto& rule : rules.rules) {
    if (rule.subject != report.subject) continue;
    auto target = by_id.find(rule.layer);
    if (target == by_id.end()) continue;
    if (rule.for_each.empty()) {
      if (evaluate_condition(rule.when, view)) target->second->findings.push_back(make_finding(rule, view, report));
      continue;
    }
    const auto* list = view.find(rule.for_each);
    if (!list || !list->is_array()) continue;
    for (const auto& item : list->get_array()) {
      const FactView item_view = view.with_item(item);
      if (evaluate_condition(rule.when, item_view)) target->second->findings.push_back(make_finding(rule, item_view, report, &item));
    }
  }
  drop_explained_live_failures(rules, report);
  mark_consequences(rules, report);
  settle_verdict(report);
}

}  // namespace gd
