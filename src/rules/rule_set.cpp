#include "rules/rule_set.h"

#include "model/layers.h"
#include "rules/condition.h"
#include "util/json_fields.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

namespace gd {
namespace json = boost::json;

namespace {

std::size_t line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

[[noreturn]] void fail(const RuleFile& file, std::size_t line, const std::string& problem) {
  throw RuleError(file.name + ":" + std::to_string(line) + ": " + problem);
}

// Semantic errors have no parser position; the rule's id line is the best guess.
std::size_t line_of_rule(const RuleFile& file, const std::string& id) {
  const auto at = id.empty() ? std::string::npos : file.text.find("\"" + id + "\"");
  return at == std::string::npos ? 1 : line_at(file.text, at);
}

json::value parse_with_line(const RuleFile& file, json::storage_ptr storage) {
  json::stream_parser parser;
  parser.reset(std::move(storage));
  boost::system::error_code error;
  const std::size_t used = parser.write(file.text.data(), file.text.size(), error);
  if (!error) parser.finish(error);
  if (error) fail(file, line_at(file.text, used), "not valid JSON: " + error.message());
  return parser.release();
}

std::string required_string(const RuleFile& file, const json::object& rule, const char* key, const std::string& id) {
  auto value = optional_string(rule, key);
  if (!value || value->empty()) fail(file, line_of_rule(file, id), "rule \"" + id + "\" needs a non-empty \"" + key + "\"");
  return std::move(*value);
}

bool valid_id(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

// "disputed_by" and "spared_when" of a fail rule: [{"when": C, "says": TEXT}].
std::vector<Disagreement> parse_when_says(const RuleFile& file, json::object& object, const Rule& rule, const char* key) {
  std::vector<Disagreement> entries;
  auto* list = object.if_contains(key);
  if (!list) return entries;
  const auto refuse = [&](const std::string& problem) { fail(file, line_of_rule(file, rule.id), "rule \"" + rule.id + "\": " + problem); };
  if (rule.severity != Severity::fail) refuse(std::string("only a fail rule can have \"") + key + "\"");
  if (!list->is_array()) refuse(std::string("\"") + key + "\" is a list of {\"when\", \"says\"}");
  for (auto& entry : list->get_array()) {
    auto* item = entry.if_object();
    auto* condition = item ? item->if_contains("when") : nullptr;
    const auto* says = item ? item->if_contains("says") : nullptr;
    if (!condition || !says || !says->is_string() || says->get_string().empty())
      refuse(std::string("each \"") + key + "\" entry needs \"when\" and \"says\"");
    auto compiled = compile_condition(*condition);
    if (!compiled) refuse(std::string(key) + ": " + compiled.error());
    entries.push_back({std::move(*compiled), std::string(says->get_string())});
  }
  return entries;
}

// "phrases": {"FACT": {"VALUE": "WORDS", ...}}: the words a placeholder of FACT
// prints for each value. Words hold no placeholder of their own; that each of
// the fact's values has words is checked against the fact schema.
void parse_phrases(const RuleFile& file, json::object& object, Rule& rule) {
  const auto* phrases = object.if_contains("phrases");
  if (!phrases) return;
  const auto refuse = [&](const std::string& problem) { fail(file, line_of_rule(file, rule.id), "rule \"" + rule.id + "\": " + problem); };
  if (!phrases->is_object()) refuse("\"phrases\" is an object of facts, each an object of values and their words");
  for (const auto& [fact, words] : phrases->get_object()) {
    if (!words.is_object() || words.get_object().empty()) refuse("\"phrases\" of " + std::string(fact) + ": an object of values and their words");
    auto& table = rule.phrases[std::string(fact)];
    for (const auto& [value, text] : words.get_object()) {
      if (!text.is_string() || text.get_string().empty()) refuse("\"phrases\" of " + std::string(fact) + ": the words for " + std::string(value) + " are text");
      if (text.get_string().find_first_of("{}") != json::string::npos)
        refuse("\"phrases\" of " + std::string(fact) + ": the words for " + std::string(value) + " hold no placeholder");
      table[std::string(value)] = std::string(text.get_string());
    }
  }
}

// "predicts": "cuda", or [{"when": C, "outcome": "cuda"}, {"outcome": "nvml"}].
void parse_prediction(const RuleFile& file, json::object& object, Rule& rule) {
  // Where a problem is reported: found only then (the search costs a pass over the file).
  const auto refuse = [&](const std::string& problem) { fail(file, line_of_rule(file, rule.id), "rule \"" + rule.id + "\": " + problem); };
  auto* predicts = object.if_contains("predicts");
  if (!predicts) {
    if (rule.severity == Severity::fail)
      refuse("a fail rule says which outcome it predicts (\"predicts\", an id of tables/outcomes.json)");
    if (object.contains("if_works") || object.contains("unless_explained"))
      refuse("\"if_works\" and \"unless_explained\" need \"predicts\"");
    return;
  }
  if (rule.severity != Severity::fail) refuse("only a fail rule predicts an outcome");
  if (predicts->is_string()) {
    rule.predicts.push_back({std::nullopt, std::string(predicts->get_string())});
  } else if (predicts->is_array() && !predicts->get_array().empty()) {
    for (auto& entry : predicts->get_array()) {
      auto* item = entry.if_object();
      const auto* outcome = item ? item->if_contains("outcome") : nullptr;
      if (!outcome || !outcome->is_string()) refuse("each \"predicts\" entry names an \"outcome\"");
      Prediction prediction{std::nullopt, std::string(outcome->get_string())};
      if (auto* condition = item->if_contains("when")) {
        auto compiled = compile_condition(*condition);
        if (!compiled) refuse("predicts: " + compiled.error());
        prediction.when = std::move(*compiled);
      }
      rule.predicts.push_back(std::move(prediction));
    }
  } else {
    refuse("\"predicts\" is an outcome id or a list of {\"when\", \"outcome\"}");
  }
  if (const auto* if_works = object.if_contains("if_works")) {
    if (!if_works->is_string() || if_works->get_string().empty()) refuse("\"if_works\" is text");
    rule.if_works = std::string(if_works->get_string());
  }
  if (const auto* unless = object.if_contains("unless_explained")) {
    if (!unless->is_bool()) refuse("\"unless_explained\" is true or false");
    rule.unless_explained = unless->get_bool();
  }
}

// "action": a name of model/action.h, or {"fact": PATH, "else": NAME} for
// an action that a fact carries (an Xid's, from its table row).
void parse_rule_action(const RuleFile& file, const json::object& object, Rule& rule) {
  const auto refuse = [&](const std::string& problem) {
    fail(file, line_of_rule(file, rule.id), "rule \"" + rule.id + "\": " + problem);
  };
  const auto named = [&](const json::value& value) {
    const auto action = value.is_string() ? parse_action(value.get_string()) : std::nullopt;
    if (!action) refuse("\"action\" is one of " + joined_names<Action>());
    return *action;
  };
  const auto* given = object.if_contains("action");
  if (!given) {
    rule.action = rule.severity == Severity::info ? Action::none
                  : rule.layer == layer_id(LayerId::hardware) ? Action::inspect_hardware
                                                  : Action::fix_configuration;
    return;
  }
  rule.action_stated = true;
  if (given->is_object()) {
    const auto* fact = given->get_object().if_contains("fact");
    const auto* otherwise = given->get_object().if_contains("else");
    if (!fact || !fact->is_string() || fact->get_string().empty() || !otherwise || given->get_object().size() != 2)
      refuse("\"action\" from a fact is {\"fact\": PATH, \"else\": ACTION}");
    rule.action_fact = std::string(fact->get_string());
    rule.action = named(*otherwise);
    return;
  }
  rule.action = named(*given);
  if (rule.severity == Severity::info && rule.action != Action::none) refuse("an info rule's action is none");
}

// Takes the rule's condition out of value (moved, not copied: the rule set is
// parsed on every run).
Rule parse_rule(const RuleFile& file, json::value& value) {
  if (!value.is_object()) fail(file, 1, "each entry of \"rules\" must be an object");
  auto& object = value.get_object();
  const std::string id = string_field(object, "id");
  if (!valid_id(id)) fail(file, line_of_rule(file, id), "a rule needs an \"id\" of lower-case letters, digits and '-'");
  Rule rule;
  rule.id = id;
  rule.file = file.name;
  if (const auto* subject = object.if_contains("subject")) {
    // Rules judge host-shaped facts; an image is reported through them, regrouped (check/image_view.h).
    if (!subject->is_string() || subject->get_string() != k_host_subject)
      fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"subject\" can only be host (an image is judged by the host's rules, then regrouped)");
    rule.subject = std::string(subject->get_string());
  }
  rule.layer = required_string(file, object, "layer", id);
  if (!is_layer_of(*find_subject(rule.subject), rule.layer))
    fail(file, line_of_rule(file, id), "rule \"" + id + "\": unknown layer \"" + rule.layer + "\" of subject " + rule.subject);
  const auto severity = parse_severity(required_string(file, object, "severity", id));
  if (!severity) fail(file, line_of_rule(file, id), "rule \"" + id + "\": severity must be fail, warn or info");
  rule.severity = *severity;
  rule.message = required_string(file, object, "message", id);
  rule.fix = required_string(file, object, "fix", id);
  parse_phrases(file, object, rule);
  rule.source = required_string(file, object, "source", id);
  parse_rule_action(file, object, rule);
  auto* when = object.if_contains("when");
  if (!when) fail(file, line_of_rule(file, id), "rule \"" + id + "\" needs a \"when\" condition");
  auto compiled = compile_condition(*when);
  if (!compiled) fail(file, line_of_rule(file, id), "rule \"" + id + "\": " + compiled.error());
  rule.when = std::move(*compiled);
  if (const auto* for_each = object.if_contains("for_each")) {
    if (!for_each->is_string()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"for_each\" names a list fact");
    rule.for_each = std::string(for_each->get_string());
  }
  if (const auto* explained_by = object.if_contains("explained_by")) {
    if (!explained_by->is_array()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"explained_by\" is a list of rule ids");
    for (const auto& cause : explained_by->get_array()) {
      if (!cause.is_string()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"explained_by\" holds rule ids");
      rule.explained_by.emplace_back(cause.get_string());
    }
  }
  if (const auto* quiet = object.if_contains("quiet")) {
    if (!quiet->is_bool()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"quiet\" is true or false");
    if (quiet->get_bool() && rule.severity != Severity::info)
      fail(file, line_of_rule(file, id), "rule \"" + id + "\": only an info rule can be \"quiet\"");
    rule.quiet = quiet->get_bool();
  }
  if (const auto* unmet = object.if_contains("unmet_request")) {
    if (!unmet->is_bool()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"unmet_request\" is true or false");
    rule.unmet_request = unmet->get_bool();
  }
  rule.disputed_by = parse_when_says(file, object, rule, "disputed_by");
  parse_prediction(file, object, rule);
  rule.spared_when = parse_when_says(file, object, rule, "spared_when");
  if (!rule.spared_when.empty() && rule.predicts.empty())
    fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"spared_when\" needs \"predicts\"");
  if (const auto* evidence = object.if_contains("evidence")) {
    if (!evidence->is_array()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": \"evidence\" is a list of facts");
    for (const auto& path : evidence->get_array()) {
      if (!path.is_string()) fail(file, line_of_rule(file, id), "rule \"" + id + "\": evidence entries are fact paths");
      rule.evidence.emplace_back(path.get_string());
    }
  }
  return rule;
}

}  // namespace

const LintRule* RuleSet::find_lint(std::string_view id) const {
  for (const auto& rule : lint)
    if (rule.id == id) return &rule;
  return nullptr;
}

const OutcomeDef* RuleSet::find_outcome(std::string_view id) const {
  for (const auto& outcome : outcomes)
    if (outcome.id == id) return &outcome;
  return nullptr;
}

const Rule* RuleSet::find(std::string_view id) const {
  for (const auto& rule : rules)
    if (rule.id == id) return &rule;
  return nullptr;
}

RuleSet load_rule_files(const std::vector<RuleFile>& files) {
  RuleSet set;
  // The files' JSON lives only while they are read (rules keep compiled
  // conditions and typed rows), in one arena freed at once: parsed and
  // freed node by node it cost three quarters of a replayed check.
  json::monotonic_resource arena;
  std::set<std::string> ids;
  bool have_chips = false, have_signatures = false, have_outcomes = false;
  for (const auto& file : files) {
    if (file.name.ends_with("pci-products.tsv")) {
      if (auto checked = set.tables.chips.load_products(file.text); !checked) fail(file, 1, "pci-products " + checked.error());
      continue;
    }
    // Not counted: the arena outlives the documents, and so they are freed with it, not one by one.
    json::value document = parse_with_line(file, json::storage_ptr(&arena));
    if (!document.is_object()) fail(file, 1, "the top level must be an object");
    auto& top = document.get_object();
    if (const auto* table = top.if_contains("table")) {
      if (!table->is_string()) fail(file, 1, "\"table\" names the table");
      if (!top.contains("source")) fail(file, 1, "a table must say where its data comes from (\"source\")");
      // A bad row is refused here, with the file and the row: probes trust typed rows.
      if (table->get_string() == "pci-chips") {
        if (auto checked = set.tables.chips.load(top); !checked) fail(file, 1, checked.error());
        have_chips = true;
      } else if (table->get_string() == "driver-installers") {
        if (auto checked = set.tables.installers.load(top); !checked) fail(file, 1, "table \"driver-installers\": " + checked.error());
      } else if (table->get_string() == "tegra-socs") {
        if (auto checked = set.tables.tegra.load(top); !checked) fail(file, 1, "table \"tegra-socs\": " + checked.error());
      } else if (table->get_string() == "outcomes") {
        if (auto checked = load_outcomes(top, set.outcomes); !checked) fail(file, 1, "table \"outcomes\": " + checked.error());
        have_outcomes = true;
      } else if (table->get_string() == "error-signatures") {
        if (auto checked = load_error_signatures(top, set.signatures); !checked) fail(file, 1, "table \"error-signatures\": " + checked.error());
        have_signatures = true;
      } else if (auto checked = set.tables.cuda.load(top); !checked) {
        fail(file, 1, "table \"" + std::string(table->get_string()) + "\": " + checked.error());
      }
      continue;
    }
    if (const auto* lint = top.if_contains("lint")) {
      if (!lint->is_array()) fail(file, 1, "\"lint\" is a list of checks");
      for (const auto& value : lint->get_array()) {
        LintRule rule;
        std::string severity;
        const auto* object = value.if_object();
        for (auto [key, target] : {std::pair{"id", &rule.id}, {"severity", &severity}, {"message", &rule.message},
                                   {"fix", &rule.fix}, {"source", &rule.source}}) {
          const auto* field = object ? object->if_contains(key) : nullptr;
          if (!field || !field->is_string() || field->get_string().empty())
            fail(file, 1, std::string("a lint check needs \"") + key + "\" (text)");
          *target = std::string(field->get_string());
        }
        const auto parsed = parse_severity(severity);
        if (!parsed) fail(file, line_of_rule(file, rule.id), "lint check \"" + rule.id + "\": severity is fail, warn or info");
        rule.severity = *parsed;
        set.lint.push_back(std::move(rule));
      }
      continue;
    }
    auto* rules = top.if_contains("rules");
    if (!rules || !rules->is_array()) fail(file, 1, "a rules file holds {\"rules\": [...]} (or a \"table\", or \"lint\")");
    for (auto& value : rules->get_array()) {
      Rule rule = parse_rule(file, value);
      if (!ids.insert(rule.id).second) fail(file, line_of_rule(file, rule.id), "rule id \"" + rule.id + "\" is used twice");
      set.rules.push_back(std::move(rule));
    }
  }
  if (!have_chips) throw RuleError("rules: no tables/pci-chips.json table");
  for (const auto& rule : set.rules)
    for (const auto& cause : rule.explained_by)
      if (!ids.count(cause) || cause == rule.id)
        throw RuleError(rule.file + ": rule \"" + rule.id + "\" is explained by \"" + cause + "\", which is " +
                        (cause == rule.id ? "itself" : "no rule"));
  for (const auto& missing : set.tables.cuda.missing_tables()) throw RuleError("rules: no \"" + missing + "\" table");
  if (!have_outcomes) throw RuleError("rules: no \"outcomes\" table");
  for (const auto& rule : set.rules)
    for (const auto& prediction : rule.predicts)
      if (!set.find_outcome(prediction.outcome))
        throw RuleError(rule.file + ": rule \"" + rule.id + "\" predicts \"" + prediction.outcome + "\", which is no outcome of tables/outcomes.json");
  if (!have_signatures) throw RuleError("rules: no \"error-signatures\" table");
  for (const auto& signature : set.signatures)
    for (const auto& id : signature.rules)
      if (!ids.count(id))
        throw RuleError("tables/error-signatures.json: signature \"" + signature.id + "\" names \"" + id + "\", which is no rule");
  return set;
}

RuleSet load_rules_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  constexpr std::size_t k_max_rule_file = 8 << 20, k_max_rules_total = 32 << 20;
  std::size_t total = 0;
  std::vector<RuleFile> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file() || (it->path().extension() != ".json" && it->path().extension() != ".tsv")) continue;
    // Bounded, like every input: the built-in rules and tables are 700 KB in all.
    const auto size = it->file_size(error);
    if (error) break;
    if (size > k_max_rule_file)
      throw RuleError(it->path().string() + ": larger than the " + std::to_string(k_max_rule_file >> 20) + " MB a rule file may be");
    total += size;
    if (total > k_max_rules_total || files.size() >= 1000)
      throw RuleError(dir + ": more rules than gpudoctor accepts (" + std::to_string(k_max_rules_total >> 20) + " MB, 1000 files)");
    std::ifstream in(it->path(), std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<std::size_t>(in.gcount()));
    files.push_back({it->path().string(), std::move(text)});
  }
  if (error) throw RuleError(dir + ": " + error.message());
  if (files.empty()) throw RuleError(dir + ": no .json rule files");
  std::sort(files.begin(), files.end(), [](const RuleFile& a, const RuleFile& b) { return a.name < b.name; });
  return load_rule_files(files);
}

}  // namespace gd
