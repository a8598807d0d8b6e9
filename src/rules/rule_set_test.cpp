#include "rules/rule_set.h"

#include "model/layers.h"
#include "rules/message_template.h"

#include <doctest/doctest.h>

#include <set>

namespace {

const char* k_chips = R"({"table": "pci-chips", "source": "test", "rows": [{"chip": "GH100", "first": "2302", "last": "23f0", "cc": "9.0", "architecture": "Hopper"}]})";

std::string error_of(const std::string& rules_text) {
  try {
    gd::load_rule_files({{"tables/pci-chips.json", k_chips}, {"layers/test.json", rules_text}});
  } catch (const gd::RuleError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the built-in rules load, with unique ids, known layers, sources and fixes") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  CHECK(rules.rules.size() >= 30);
  CHECK(rules.chips.size() > 40);
  std::set<std::string> ids;
  for (const auto& rule : rules.rules) {
    CAPTURE(rule.id);
    CHECK(ids.insert(rule.id).second);
    CHECK(gd::is_layer_id(rule.layer));
    CHECK_FALSE(rule.source.empty());
    CHECK_FALSE(rule.fix.empty());
  }
  CHECK(rules.find("no-nvidia-gpu") != nullptr);
  CHECK(rules.find("no-such-rule") == nullptr);
}

TEST_CASE("the chip table finds the narrowest range and knows architectures") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  CHECK(rules.chips.lookup(0x2330)->chip == "GH100");
  CHECK(rules.chips.lookup(0x2330)->compute_capability == "9.0");
  CHECK(rules.chips.lookup(0x1b80)->architecture == "Pascal");
  CHECK(rules.chips.lookup(0x130b)->chip == "GK110B");  // inside GM107's range too, but narrower
  CHECK(rules.chips.lookup(0x2b85)->first_branch == 570);
  CHECK(rules.chips.lookup(0x1024)->last_branch == 470);
  CHECK_FALSE(rules.chips.lookup(0x0001));
}

TEST_CASE("a bad rules file is an error naming the file and the line") {
  SUBCASE("broken JSON") {
    CHECK(error_of("{\n  \"rules\": [\n    {,\n  ]\n}") .find("layers/test.json:3:") == 0);
  }
  SUBCASE("unknown layer") {
    const std::string text = "{\"rules\": [\n{\"id\": \"x\", \"layer\": \"gpu\", \"severity\": \"fail\", \"when\": {\"fact\": \"a.b\", \"eq\": 1},"
                             " \"message\": \"m\", \"fix\": \"f\", \"source\": \"s\"}]}";
    CHECK(error_of(text) == "layers/test.json:2: rule \"x\": unknown layer \"gpu\"");
  }
  SUBCASE("bad operator") {
    const std::string text = "{\"rules\": [\n\n{\"id\": \"y\", \"layer\": \"hardware\", \"severity\": \"warn\", \"when\": {\"fact\": \"a.b\", \"is\": 1},"
                             " \"message\": \"m\", \"fix\": \"f\", \"source\": \"s\"}]}";
    CHECK(error_of(text).find("layers/test.json:3: rule \"y\": unknown operator") == 0);
  }
  SUBCASE("missing source") {
    const std::string text = R"({"rules": [{"id": "z", "layer": "hardware", "severity": "warn", "when": {"fact": "a.b", "eq": 1}, "message": "m", "fix": "f"}]})";
    CHECK(error_of(text).find("needs a non-empty \"source\"") != std::string::npos);
  }
  SUBCASE("duplicate id") {
    const std::string rule = R"({"id": "d", "layer": "hardware", "severity": "warn", "when": {"fact": "a.b", "eq": 1}, "message": "m", "fix": "f", "source": "s"})";
    CHECK(error_of("{\"rules\": [" + rule + "," + rule + "]}").find("used twice") != std::string::npos);
  }
}

TEST_CASE("message templates fill facts, fall back, and keep braces they cannot read") {
  boost::json::object system{{"platform", "linux"}, {"groups", boost::json::array{27, 44}}};
  std::map<std::string, const gd::LayerFacts*> layers;
  gd::FactView view(system, layers);
  CHECK(gd::render_template("on {system.platform}", view) == "on linux");
  CHECK(gd::render_template("groups {system.groups}", view) == "groups 27, 44");
  CHECK(gd::render_template("{system.nothing|a fallback}", view) == "a fallback");
  CHECK(gd::render_template("{system.nothing}", view) == "unknown");
  CHECK(gd::render_template("open { brace", view) == "open { brace");
}
