#include "rules/condition.h"

#include <doctest/doctest.h>

namespace json = boost::json;

namespace {

struct Fixture {
  json::object system{{"platform", "linux"}};
  gd::LayerFacts kernel{"kernel-module", gd::Status::ok, "", {}, {}};
  gd::FactLayers layers;
  Fixture() {
    kernel.set("version", "535.104.05", "/proc/driver/nvidia/version");
    kernel.set("loaded", true);
    kernel.set("branch", 535);
    kernel.set("modules", json::object{{"nvidia_uvm", false}});
    kernel.set("claimed", json::array{"0000:01:00.0"});
    layers["kernel-module"] = &kernel;
  }
  bool holds(const char* text, const json::value* item = nullptr) const {
    const auto condition = gd::compile_condition(json::parse(text));
    REQUIRE_MESSAGE(condition, text);
    gd::FactView view(system, layers);
    return item ? gd::evaluate_condition(*condition, view.with_item(*item)) : gd::evaluate_condition(*condition, view);
  }
};

}  // namespace

TEST_CASE("comparisons over facts") {
  Fixture f;
  CHECK(f.holds(R"({"fact": "system.platform", "eq": "linux"})"));
  CHECK(f.holds(R"({"fact": "kernel-module.loaded", "eq": true})"));
  CHECK(f.holds(R"({"fact": "kernel-module.modules.nvidia_uvm", "eq": false})"));
  CHECK(f.holds(R"({"fact": "kernel-module.branch", "ge": 535, "lt": 550})"));
  CHECK_FALSE(f.holds(R"({"fact": "kernel-module.branch", "gt": 535})"));
  CHECK(f.holds(R"({"fact": "system.platform", "in": ["wsl2", "linux"]})"));
  CHECK(f.holds(R"({"fact": "system.platform", "not_in": ["wsl2"]})"));
  CHECK(f.holds(R"({"fact": "kernel-module.claimed", "contains": "0000:01:00.0"})"));
  CHECK(f.holds(R"({"fact": "kernel-module.claimed", "empty": false})"));
}

TEST_CASE("versions compare as versions only when asked") {
  Fixture f;
  CHECK(f.holds(R"({"fact": "kernel-module.version", "gt": "535.54.03", "as": "version"})"));
  CHECK_FALSE(f.holds(R"({"fact": "kernel-module.version", "gt": "535.54.03"})"));  // text order: "1" < "5"
  CHECK(f.holds(R"({"fact": "kernel-module.version", "lt": "535.104.10", "as": "version"})"));
}

TEST_CASE("a missing fact never fires a rule, except exists: false") {
  Fixture f;
  CHECK_FALSE(f.holds(R"({"fact": "kernel-module.nothing", "eq": false})"));
  CHECK_FALSE(f.holds(R"({"fact": "kernel-module.nothing", "ne": "x"})"));
  CHECK_FALSE(f.holds(R"({"fact": "no-such-layer.x", "exists": true})"));
  CHECK(f.holds(R"({"fact": "kernel-module.nothing", "exists": false})"));
  CHECK_FALSE(f.holds(R"({"fact": "kernel-module.branch", "lt": {"fact": "kernel-module.nothing"}})"));
}

TEST_CASE("all, any, not, facts as operands, and items") {
  Fixture f;
  CHECK(f.holds(R"({"all": [{"fact": "kernel-module.loaded", "eq": true}, {"not": {"fact": "system.platform", "eq": "wsl2"}}]})"));
  CHECK(f.holds(R"({"any": [{"fact": "system.platform", "eq": "wsl2"}, {"fact": "kernel-module.branch", "eq": 535}]})"));
  CHECK_FALSE(f.holds(R"({"all": [{"fact": "system.platform", "eq": "wsl2"}, {"fact": "kernel-module.branch", "eq": 535}]})"));
  const json::value item = json::parse(R"({"first_branch": 570, "driver": "none"})");
  CHECK(f.holds(R"({"fact": "kernel-module.branch", "lt": {"fact": "item.first_branch"}})", &item));
  CHECK(f.holds(R"({"fact": "item.driver", "eq": "none"})", &item));
  // Against a fact that is no list, neither in nor not_in holds.
  CHECK_FALSE(f.holds(R"({"fact": "item.driver", "in": {"fact": "system.platform"}})", &item));
  CHECK_FALSE(f.holds(R"({"fact": "item.driver", "not_in": {"fact": "system.platform"}})", &item));
  CHECK(f.holds(R"({"fact": "system.platform", "not_in": {"fact": "kernel-module.claimed"}})"));
  const json::value text_item("junk");
  CHECK(f.holds(R"({"fact": "item", "exists": true})", &text_item));
}

std::string problem_of(const char* text) {
  const auto condition = gd::compile_condition(json::parse(text));
  return condition ? "" : condition.error();
}

TEST_CASE("compile_condition explains what is wrong") {
  CHECK(problem_of(R"({"fact": "a.b", "eq": 1})") == "");
  CHECK(problem_of(R"({"fact": "a.b", "equals": 1})") == "unknown operator \"equals\"");
  CHECK(problem_of(R"({"fact": "a.b"})") == "a comparison needs an operator");
  CHECK(problem_of(R"({"fact": "nodots", "eq": 1})") == "a comparison needs \"fact\": \"layer.name\"");
  CHECK(problem_of(R"({"all": []})") == "\"all\" needs a non-empty list");
  CHECK(problem_of(R"({"fact": "a.b", "in": "x"})") == "\"in\" takes a list or {\"fact\": ...}");
  CHECK(problem_of(R"({"fact": "a.b", "eq": ["x"]})") == "\"eq\" takes one value, not a list");
  CHECK(problem_of(R"({"fact": "a.b", "eq": 1, "as": "number"})") == "\"as\" can only be \"version\"");
  CHECK(problem_of(R"({"fact": "a.b", "lt": "5.x", "as": "version"})") == "\"5.x\" is no version (1 to 4 dotted numbers)");
  CHECK(problem_of(R"({"fact": "a.b", "in": ["1.0"], "as": "version"})").find("not \"in\"") != std::string::npos);
  CHECK(problem_of(R"({"fact": "a.b", "eq": null})").find("null can never be compared") == 0);
  CHECK(problem_of(R"({"fact": "a.b", "in": [1, {"x": 2}]})").find("an operand is") == 0);
  CHECK(problem_of(R"({"fact": "a.b", "exists": "yes"})") == "\"exists\" takes true or false");
  CHECK(problem_of(R"({"fact": "a.b", "eq": {"fact": "a.c", "as": "version"}})") == "a fact operand is {\"fact\": PATH} alone");
  CHECK(problem_of(R"({"any": [{"fact": "a.b", "eq": 1}, {"not": {"fact": "a.c", "equals": 2}}]})") == "unknown operator \"equals\"");
  CHECK(problem_of("[1, 2]") == "a condition must be an object");
  // A literal past int64 is written as the number it is (the cast would be undefined).
  CHECK(json::serialize(gd::condition_json(*gd::compile_condition(json::parse(R"({"fact": "a.b", "eq": 1e300})")))) ==
        R"({"fact":"a.b","eq":1E300})");
}

TEST_CASE("a compiled condition is written back as rules/ writes it") {
  const char* text = R"({"all":[{"fact":"kernel-module.branch","ge":535},{"not":{"fact":"system.platform","in":["wsl2","linux"]}},)"
                     R"({"fact":"kernel-module.version","lt":"535.104.10","as":"version"},{"fact":"a.b","eq":{"fact":"a.c"}},)"
                     R"({"fact":"a.d","exists":false}]})";
  CHECK(json::serialize(gd::condition_json(*gd::compile_condition(json::parse(text)))) == text);
  // Two operators on one fact are two comparisons that must both hold.
  CHECK(json::serialize(gd::condition_json(*gd::compile_condition(json::parse(R"({"fact":"a.b","ge":1,"lt":2})")))) ==
        R"({"all":[{"fact":"a.b","ge":1},{"fact":"a.b","lt":2}]})");
}
