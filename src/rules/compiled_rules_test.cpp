#include "rules/compiled_rules.h"

#include "rules/embedded_rules.h"
#include "util/binary_form.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace {

// The same set keyed by what does not depend on where its files were read
// from: rules by id with their file named relative to rules/.
std::map<std::string, gd::Rule> rules_by_id(const gd::RuleSet& set, const std::string& rules_dir) {
  std::map<std::string, gd::Rule> by_id;
  for (auto rule : set.rules) {
    if (rule.file.starts_with(rules_dir)) rule.file = rule.file.substr(rules_dir.size());
    by_id.emplace(rule.id, std::move(rule));
  }
  return by_id;
}

std::vector<gd::LintRule> lint_by_id(std::vector<gd::LintRule> lint) {
  std::sort(lint.begin(), lint.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return lint;
}

}  // namespace

TEST_CASE("the rule set the binary carries is the one the JSON of rules/ loads to") {
  const std::string rules_dir = std::string(GPUDOCTOR_SOURCE) + "/rules/";
  const auto from_json = gd::load_rules_dir(rules_dir);
  const auto built_in = gd::load_embedded_rules();
  REQUIRE(built_in.rules.size() == from_json.rules.size());
  CHECK(rules_by_id(built_in, rules_dir) == rules_by_id(from_json, rules_dir));
  CHECK(built_in.tables == from_json.tables);  // the product table's text too
  CHECK(built_in.signatures == from_json.signatures);
  CHECK(lint_by_id(built_in.lint) == lint_by_id(from_json.lint));
  CHECK(built_in.outcomes == from_json.outcomes);
  // The layers' files in the pipeline's order (rules/meson.build), not by name.
  CHECK(built_in.rules.front().file == "layers/hardware.json");
}

TEST_CASE("a compiled rule set reads back equal, and damaged bytes are refused") {
  const auto built_in = gd::load_embedded_rules();
  const auto compiled = gd::write_compiled_rules(built_in);
  CHECK(compiled.tables == gd::compiled_tables());
  CHECK(compiled.rules == gd::compiled_rule_set());
  gd::RuleSet back;
  back.tables = gd::read_compiled_tables(compiled.tables);
  back.tables.chips.load_products_lazily(gd::embedded_pci_products());
  gd::read_compiled_rules(compiled.rules, back);
  CHECK(back == built_in);
  for (const std::string& bytes : {compiled.tables, compiled.rules}) {
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
      CAPTURE(size);
      gd::RuleSet into;
      CHECK_THROWS_AS(gd::read_compiled_tables(std::string_view(bytes).substr(0, size)), gd::BinaryFormError);
      CHECK_THROWS_AS(gd::read_compiled_rules(std::string_view(bytes).substr(0, size), into), gd::BinaryFormError);
    }
  }
  CHECK_THROWS_WITH_AS(gd::read_compiled_tables(compiled.tables + "x"), "bytes left after the tables", gd::BinaryFormError);
  gd::RuleSet into;
  CHECK_THROWS_WITH_AS(gd::read_compiled_rules(compiled.rules + "x", into), "bytes left after the rule set", gd::BinaryFormError);
  CHECK(into.rules.empty());  // a set is filled whole or not at all
  // One part is not the other: each is refused where the other is expected.
  CHECK_THROWS_AS(gd::read_compiled_tables(compiled.rules), gd::BinaryFormError);
  CHECK_THROWS_AS(gd::read_compiled_rules(compiled.tables, into), gd::BinaryFormError);
}

TEST_CASE("the built-in set is read in two steps into one set, the same on every call") {
  const gd::ReferenceTables& tables = gd::built_in_tables();
  const gd::RuleSet& rules = gd::built_in_rules();
  CHECK(&rules.tables == &tables);  // the rules' tables are the ones the probes had
  CHECK(&gd::built_in_rules() == &rules);
  CHECK(rules == gd::load_embedded_rules());
}
