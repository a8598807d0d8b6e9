#include "rules/rule_facts.h"

#include "model/enum_names.h"

#include <algorithm>

namespace gd {
namespace json = boost::json;

namespace {

Problem unknown_path(std::string_view path, std::string_view where) {
  return problem(std::string(where) + " names \"" + std::string(path) + "\", which is no fact (gpudoctor facts lists them)");
}

Checked<> value_allowed(const SchemaMatch& match, std::string_view path, const json::value& literal) {
  if (!match.doc || match.beneath_open || match.doc->values.empty() || !literal.is_string()) return {};
  const auto& values = match.doc->values;
  if (std::find(values.begin(), values.end(), std::string_view(literal.get_string())) != values.end()) return {};
  std::string allowed;
  for (const auto& value : values) allowed += (allowed.empty() ? "" : ", ") + value;
  return problem("\"" + std::string(path) + "\" is never \"" + std::string(literal.get_string()) + "\" (it is one of: " + allowed + ")");
}

Checked<> check_condition(const json::value& condition, const FactSchema& schema, std::string_view item_list) {
  const auto& object = condition.as_object();  // validate_condition has checked the shape
  for (const char* group : {"all", "any"})
    if (const auto* parts = object.if_contains(group)) {
      for (const auto& part : parts->get_array())
        if (auto checked = check_condition(part, schema, item_list); !checked) return checked;
      return {};
    }
  if (const auto* inner = object.if_contains("not")) return check_condition(*inner, schema, item_list);
  const std::string_view path = object.at("fact").get_string();
  const auto match = find_fact(schema, path, item_list);
  if (!match.doc) return unknown_path(path, "a condition");
  for (const auto& [op, operand] : object) {
    if (op == "fact" || op == "as" || op == "exists" || op == "empty") continue;
    if (const auto* other = operand.is_object() ? operand.get_object().if_contains("fact") : nullptr) {
      if (!other->is_string() || !find_fact(schema, other->get_string(), item_list).doc)
        return unknown_path(other->is_string() ? std::string_view(other->get_string()) : "?", "a condition's operand");
      continue;
    }
    if (op == "in" || op == "not_in") {
      for (const auto& literal : operand.get_array())
        if (auto checked = value_allowed(match, path, literal); !checked) return checked;
    } else if (op == "eq" || op == "ne" || op == "contains") {
      if (auto checked = value_allowed(match, path, operand); !checked) return checked;
    }
  }
  return {};
}

// {path} and {path|fallback}: rule_set.cpp refuses nested braces.
Checked<> check_placeholders(std::string_view text, const FactSchema& schema, std::string_view item_list) {
  for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const auto close = text.find('}', open);
    if (close == std::string_view::npos) break;
    const auto inside = text.substr(open + 1, close - open - 1);
    const auto path = inside.substr(0, inside.find('|'));
    if (!find_fact(schema, path, item_list).doc) return unknown_path(path, "a placeholder");
  }
  return {};
}

}  // namespace

FactSchema with_outcomes(FactSchema schema, const RuleSet& rules) {
  auto& docs = schema.layers["outcome"];
  docs.clear();
  const auto names = enum_names<Observed>();
  for (const auto& outcome : rules.outcomes)
    if (outcome.observable())
      docs.push_back({.path = outcome.id, .type = "string", .doc = "what this run saw: " + outcome.means,
                      .values = std::vector<std::string>(names.begin(), names.end())});
  return schema;
}

Checked<> check_rule_facts(const Rule& rule, const FactSchema& schema) {
  std::string item_list;
  if (!rule.for_each.empty()) {
    const auto list = find_fact(schema, rule.for_each);
    if (!list.doc) return unknown_path(rule.for_each, "\"for_each\"");
    if (!list.doc->type.starts_with("list")) return problem("\"for_each\" names \"" + rule.for_each + "\", which is no list");
    item_list = list.normalised;
  }
  if (auto checked = check_condition(rule.when, schema, item_list); !checked) return checked;
  for (const auto& [key, entries] : {std::pair{"disputed_by: ", &rule.disputed_by}, std::pair{"spared_when: ", &rule.spared_when}})
    for (const auto& entry : *entries) {
      if (auto checked = check_condition(entry.when, schema, item_list); !checked) return problem(std::string(key) + checked.error());
      if (auto checked = check_placeholders(entry.says, schema, item_list); !checked) return problem(std::string(key) + checked.error());
    }
  for (const auto& prediction : rule.predicts)
    if (prediction.when)
      if (auto checked = check_condition(*prediction.when, schema, item_list); !checked) return problem("predicts: " + checked.error());
  if (auto checked = check_placeholders(rule.if_works, schema, item_list); !checked) return problem("if_works: " + checked.error());
  for (const auto& path : rule.evidence)
    if (!find_fact(schema, path, item_list).doc) return unknown_path(path, "\"evidence\"");
  if (auto checked = check_placeholders(rule.message, schema, item_list); !checked) return checked;
  return check_placeholders(rule.fix, schema, item_list);
}

Checked<> check_outcome_facts(const OutcomeDef& outcome, const FactSchema& schema) {
  if (!outcome.observable()) return {};
  for (const auto* condition : {&*outcome.works, &*outcome.fails})
    if (auto checked = check_condition(*condition, schema, {}); !checked) return checked;
  if (auto checked = check_placeholders(outcome.works_says, schema, {}); !checked) return checked;
  return check_placeholders(outcome.fails_says, schema, {});
}

void check_rules_against(const RuleSet& rules, const FactSchema& subject_schema) {
  const FactSchema schema = with_outcomes(subject_schema, rules);
  for (const auto& outcome : rules.outcomes)
    if (auto checked = check_outcome_facts(outcome, schema); !checked)
      throw RuleError("tables/outcomes.json: outcome \"" + outcome.id + "\": " + checked.error());
  for (const auto& rule : rules.rules)
    if (auto checked = check_rule_facts(rule, schema); !checked)
      throw RuleError(rule.file + ": rule \"" + rule.id + "\": " + checked.error());
}

}  // namespace gd
