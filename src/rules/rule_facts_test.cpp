#include "rules/rule_facts.h"

#include <doctest/doctest.h>

namespace {

gd::FactDoc doc(std::string path, std::string type, std::vector<std::string> values = {}) {
  return {.path = std::move(path), .type = std::move(type), .doc = "", .values = std::move(values)};
}

gd::FactDoc free_text(gd::FactDoc doc) {
  doc.free_text = true;
  return doc;
}

// A schema of the shapes real layers have: a list of structs, a closed set,
// an open object (keys are data), and a list of strings.
gd::FactSchema test_schema() {
  gd::FactSchema schema;
  schema.layers["system"] = {doc("platform", "string", {"linux", "wsl2"})};
  schema.layers["hardware"] = {doc("gpu_count", "integer"),
                               doc("iommu", "boolean or null"),
                               doc("min_compute_capability", "string, optional"),
                               doc("gpus", "list of object"),
                               free_text(doc("gpus[].driver", "string or null")),
                               doc("gpus[].name", "string"),
                               doc("gpus[].bdf", "string")};
  schema.layers["container"] = {doc("injection", "string, optional", {"legacy", "cdi"}),
                                free_text(doc("markers", "list of string")),
                                doc("require", "object"),
                                doc("require.variables", "object, optional")};
  return schema;
}

gd::Rule rule_when(const char* condition, std::string for_each = {}, std::string message = "m") {
  gd::Rule rule;
  rule.id = "r";
  rule.when = *gd::compile_condition(boost::json::parse(condition));
  rule.for_each = std::move(for_each);
  rule.message = std::move(message);
  rule.fix = "f";
  return rule;
}

std::string problem_of(const gd::Rule& rule) {
  const auto checked = gd::check_rule_facts(rule, test_schema());
  return checked ? "" : checked.error();
}

}  // namespace

TEST_CASE("paths that name facts pass: list indexes, for_each items, open objects, two-fact comparisons") {
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.driver", "eq": "nouveau"})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "item.driver", "exists": true})", "hardware.gpus", "GPU {item.bdf} {item.driver|none}")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "container.require.variables.NVIDIA_REQUIRE_CUDA", "exists": true})")) == "");
  CHECK(problem_of(rule_when(R"({"all": [{"fact": "container.markers", "contains": "/.dockerenv"},
                                        {"not": {"fact": "system.platform", "in": ["wsl2"]}}]})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "item.driver", "eq": {"fact": "item.bdf"}})", "hardware.gpus")) == "");
}

TEST_CASE("a misspelt path, an impossible value or a placeholder naming no fact is refused, with what is wrong") {
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu.0.driver", "eq": "x"})")).find("\"hardware.gpu.0.driver\", which is no fact") !=
        std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "container.injection", "eq": "legasy"})")) ==
        "\"container.injection\" is never \"legasy\" (it is one of: legacy, cdi)");
  CHECK(problem_of(rule_when(R"({"fact": "system.platform", "in": ["linux", "wsl"]})")).find("never \"wsl\"") != std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "item.drvier", "exists": true})", "hardware.gpus")).find("item.drvier") != std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "item.driver", "exists": true})")).find("which is no fact") != std::string::npos);  // no for_each
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus", "exists": true})", "hardware.gpus", "{item.bfd}")).find("a placeholder") !=
        std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "container.markers", "exists": true})", "container.injection")).find("which is no list") !=
        std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.driver", "eq": {"fact": "hardware.gpus.0.nmae"}})")).find("operand") !=
        std::string::npos);
}

TEST_CASE("an operand of the wrong type, or an operator the fact cannot answer, is refused") {
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "gt": "zero"})")) == "\"hardware.gpu_count\" is an integer, never \"zero\"");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "in": [1, "2"]})")) == "\"hardware.gpu_count\" is an integer, never \"2\"");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.iommu", "eq": "true"})")) == "\"hardware.iommu\" is a boolean, never \"true\"");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.bdf", "eq": 1})")) == "\"hardware.gpus.0.bdf\" is a string, never 1");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.min_compute_capability", "lt": "7.5"})")).find("orders numbers, or versions") !=
        std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "gt": "1.0", "as": "version"})")).find("compares texts") != std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "contains": 1})")).find("\"contains\" looks inside") == 0);
  CHECK(problem_of(rule_when(R"({"fact": "container.markers", "eq": "/.dockerenv"})")).find("ask \"contains\"") != std::string::npos);
  CHECK(problem_of(rule_when(R"({"fact": "container.markers", "contains": 1})")) == "\"container.markers\" is a string, never 1");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "gt": {"fact": "hardware.gpus.0.bdf"}})")) ==
        "\"hardware.gpu_count\" (integer) is compared with \"hardware.gpus.0.bdf\" (string)");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.bdf", "in": {"fact": "container.markers"}})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.bdf", "in": {"fact": "hardware.gpus.0.driver"}})")).find("is compared with") !=
        std::string::npos);
  // What the fact can hold passes: a version order, a text inside a text, any value of an open object.
  CHECK(problem_of(rule_when(R"({"fact": "hardware.min_compute_capability", "lt": "7.5", "as": "version"})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.bdf", "contains": "0000:"})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "system.platform", "contains": "ws"})")) == "");  // a part of a name, not a name
  CHECK(problem_of(rule_when(R"({"fact": "container.require.variables.X", "gt": 3})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.iommu", "ne": false})")) == "");
}

TEST_CASE("a text compared with a literal names its values or is marked free text") {
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.name", "eq": "H100"})")) ==
        "\"hardware.gpus.0.name\" lists no values to check \"H100\" against: give the fact its values (an enum), or mark it FreeText "
        "where it holds any text");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.name", "contains": "H100"})")) == "");  // a part of a name
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.name", "eq": {"fact": "hardware.gpus.0.driver"}})")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpus.0.driver", "in": ["nouveau", "nvidia"]})")) == "");  // free text
}

TEST_CASE("check_rules_against names the file and the rule") {
  gd::RuleSet set;
  set.rules.push_back(rule_when(R"({"fact": "container.injection", "eq": "legasy"})"));
  set.rules.back().file = "layers/container.json";
  CHECK_THROWS_WITH_AS(gd::check_rules_against(set, test_schema()),
                       "layers/container.json: rule \"r\": \"container.injection\" is never \"legasy\" (it is one of: legacy, cdi)",
                       gd::RuleError);
}

TEST_CASE("spared_when and disputed_by are checked like the rule's own condition") {
  auto rule = rule_when(R"({"fact": "system.platform", "eq": "linux"})");
  rule.spared_when.push_back({*gd::compile_condition(boost::json::parse(R"({"fact": "container.injection", "eq": "legasy"})")), "x"});
  CHECK(problem_of(rule) == "spared_when: \"container.injection\" is never \"legasy\" (it is one of: legacy, cdi)");
  rule.spared_when[0] = {*gd::compile_condition(boost::json::parse(R"({"fact": "container.injection", "eq": "cdi"})")), "{system.platfrom}"};
  CHECK(problem_of(rule).find("spared_when: ") == 0);
  rule.spared_when[0].says = "{system.platform}";
  CHECK(problem_of(rule) == "");
}

TEST_CASE("an action a fact carries must name a fact") {
  auto rule = rule_when(R"({"fact": "item.driver", "exists": true})", "hardware.gpus");
  rule.action_fact = "item.driver";
  CHECK(problem_of(rule) == "");
  rule.action_fact = "item.no_such_field";
  CHECK(problem_of(rule).find("item.no_such_field") != std::string::npos);
}

TEST_CASE("phrases name a closed set's fact and give words for each of its values, no more and no fewer") {
  auto with_phrases = [](gd::Phrases phrases) {
    auto rule = rule_when(R"({"fact": "container.injection", "exists": true})", {}, "injected by {container.injection}");
    rule.phrases = std::move(phrases);
    return problem_of(rule);
  };
  CHECK(with_phrases({{"container.injection", {{"legacy", "the toolkit's hook"}, {"cdi", "a CDI spec"}}}}) == "");
  CHECK(with_phrases({{"container.injection", {{"legacy", "the toolkit's hook"}}}}).find("no words for its value \"cdi\"") != std::string::npos);
  CHECK(with_phrases({{"container.injection", {{"legacy", "l"}, {"cdi", "c"}, {"csv", "s"}}}}).find("\"csv\" is none of its values (legacy, cdi)") !=
        std::string::npos);
  CHECK(with_phrases({{"hardware.gpu_count", {{"0", "none"}}}}).find("no fixed set of values") != std::string::npos);
  CHECK(with_phrases({{"container.injectoin", {{"legacy", "l"}}}}).find("container.injectoin") != std::string::npos);
}

TEST_CASE("a placeholder inside a fallback names a fact too") {
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "gt": 0})", {}, "{hardware.min_compute_capability|at least {hardware.gpu_count}}")) == "");
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "gt": 0})", {}, "{hardware.min_compute_capability|at least {hardware.gpu_cuont}}"))
            .find("hardware.gpu_cuont") != std::string::npos);
  // Nesting is bounded, so that a hostile --rules file cannot run the renderer's recursion out of stack.
  std::string deep = "x";
  for (int level = 0; level < 6; ++level) deep = "{hardware.min_compute_capability|" + deep + "}";
  CHECK(problem_of(rule_when(R"({"fact": "hardware.gpu_count", "gt": 0})", {}, deep)).find("deeper than 4") != std::string::npos);
}
