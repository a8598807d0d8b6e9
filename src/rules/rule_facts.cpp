#include "rules/rule_facts.h"

#include "rules/message_template.h"
#include "util/enum_names.h"

#include <algorithm>

namespace gd {
namespace json = boost::json;

namespace {

Problem unknown_path(std::string_view path, std::string_view where) {
  return problem(std::string(where) + " names \"" + std::string(path) + "\", which is no fact (gpudoctor facts lists them)");
}

// What a comparison may hold a fact's value against: its type without
// "or null" and ", optional" ("integer", "string", "list of string", ...).
std::string base_type(const FactDoc& doc) {
  std::string type = doc.type;
  for (const char* suffix : {", optional", " or null"})
    if (const auto at = type.find(suffix); at != std::string::npos) type.erase(at, std::string_view(suffix).size());
  return type;
}

bool is_numeric(std::string_view type) { return type == "integer" || type == "number"; }

// A literal against a scalar type: number, text or boolean as the fact is.
Checked<> literal_fits(std::string_view path, std::string_view type, const Literal& literal) {
  const bool fits = (is_numeric(type) && literal.is_number()) || (type == "string" && literal.is_text()) ||
                    (type == "boolean" && literal.is_bool());
  if (fits) return {};
  return problem("\"" + std::string(path) + "\" is " + (type == "integer" ? "an " : "a ") + std::string(type) + ", never " +
                 literal.written());
}

std::string allowed_list(const FactDoc& doc) {
  std::string allowed;
  for (const auto& value : doc.values) allowed += (allowed.empty() ? "" : ", ") + value;
  return allowed;
}

Checked<> value_allowed(const FactDoc& doc, std::string_view path, const Literal& literal) {
  if (doc.values.empty() || !literal.is_text()) return {};
  const auto& text = std::get<std::string>(literal.value);
  if (std::find(doc.values.begin(), doc.values.end(), text) != doc.values.end()) return {};
  return problem("\"" + std::string(path) + "\" is never \"" + text + "\" (it is one of: " + allowed_list(doc) + ")");
}

// The comparison's operator and operands against the fact's type and values.
Checked<> check_types(const Comparison& c, const SchemaMatch& match, const FactSchema& schema, std::string_view item_list) {
  const std::string_view path = c.fact.text;
  const std::string op = enum_name(c.op);
  if (c.op == Op::exists || c.op == Op::empty) return {};
  if (match.beneath_open) return {};  // data keys (NVreg names, variables): any value
  const std::string type = base_type(*match.doc);
  if (type == "any" || type == "object" || type == "list") return {};  // open: what the data holds
  const bool list = type.starts_with("list of ");
  const std::string element = list ? type.substr(8) : type;
  if (c.op == Op::contains && !list && type != "string")
    return problem("\"contains\" looks inside a list or a text; \"" + std::string(path) + "\" is " + type);
  if (list && c.op != Op::contains) return problem("\"" + std::string(path) + "\" is a " + type + ": ask \"contains\", \"empty\" or \"exists\", not \"" + op + "\"");
  const bool ordered = c.op == Op::lt || c.op == Op::le || c.op == Op::gt || c.op == Op::ge;
  if (ordered && !c.as_version && !is_numeric(element))
    return problem("\"" + op + "\" orders numbers, or versions with \"as\": \"version\"; \"" + std::string(path) + "\" is " + type);
  if (c.as_version && element != "string") return problem("\"as\": \"version\" compares texts; \"" + std::string(path) + "\" is " + type);
  if (c.other) {
    const auto other = find_fact(schema, c.other->text, item_list);
    if (!other.doc) return unknown_path(c.other->text, "a condition's operand");
    if (other.beneath_open) return {};
    const std::string other_type = base_type(*other.doc);
    const bool other_list = c.op == Op::in || c.op == Op::not_in;
    const std::string want = other_list ? "list of " + element : element;
    if (other_type == want || (is_numeric(other_type) && is_numeric(want)) || other_type == "any" ||
        (other_list && other_type == "list"))
      return {};
    return problem("\"" + std::string(path) + "\" (" + type + ") is compared with \"" + c.other->text + "\" (" + other_type + ")");
  }
  // "contains" on a text looks for a part of it: any text will do.
  const bool substring = c.op == Op::contains && !list;
  for (const auto& literal : c.literals)
    if (auto checked = literal_fits(path, element, literal); !checked) return checked;
  if (substring) return {};
  // A text compared with a literal names its values, or says it holds any
  // text: otherwise a misspelt literal would never match, and never be caught.
  if (element == "string" && !c.as_version && match.doc->values.empty() && !match.doc->free_text)
    return problem("\"" + std::string(path) + "\" lists no values to check " + c.literals.front().written() +
                   " against: give the fact its values (an enum), or mark it FreeText where it holds any text");
  for (const auto& literal : c.literals) {
    if (auto checked = value_allowed(*match.doc, path, literal); !checked) return checked;
  }
  return {};
}

Checked<> check_condition(const Condition& condition, const FactSchema& schema, std::string_view item_list) {
  if (condition.kind != Condition::Kind::compare) {
    for (const auto& part : condition.parts)
      if (auto checked = check_condition(part, schema, item_list); !checked) return checked;
    return {};
  }
  const auto& c = condition.compare;
  const auto match = find_fact(schema, c.fact.text, item_list);
  if (!match.doc) return unknown_path(c.fact.text, "a condition");
  return check_types(c, match, schema, item_list);
}

// {path} and {path|fallback}, and the placeholders a fallback holds, nested no deeper than the renderer fills them.
Checked<> check_placeholders(std::string_view text, const FactSchema& schema, std::string_view item_list, int depth = 0) {
  for (auto placeholder = next_placeholder(text, 0); placeholder; placeholder = next_placeholder(text, placeholder->end)) {
    if (!find_fact(schema, placeholder->path, item_list).doc) return unknown_path(placeholder->path, "a placeholder");
    if (!placeholder->fallback) continue;
    if (depth == k_max_placeholder_depth)
      return problem("placeholders nested in fallbacks deeper than " + std::to_string(k_max_placeholder_depth) + " levels");
    if (auto checked = check_placeholders(*placeholder->fallback, schema, item_list, depth + 1); !checked) return checked;
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
  if (!rule.action_fact.empty() && !find_fact(schema, rule.action_fact, item_list).doc)
    return unknown_path(rule.action_fact, "\"action\"");
  for (const auto& [path, words] : rule.phrases) {
    const auto fact = find_fact(schema, path, item_list);
    if (!fact.doc) return unknown_path(path, "\"phrases\"");
    if (fact.doc->values.empty()) return problem("\"phrases\" of \"" + path + "\": a fact of no fixed set of values has no words per value");
    for (const auto& value : fact.doc->values)
      if (!words.contains(value)) return problem("\"phrases\" of \"" + path + "\": no words for its value \"" + value + "\"");
    for (const auto& [value, _] : words)
      if (std::find(fact.doc->values.begin(), fact.doc->values.end(), value) == fact.doc->values.end())
        return problem("\"phrases\" of \"" + path + "\": \"" + value + "\" is none of its values (" + allowed_list(*fact.doc) + ")");
  }
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
