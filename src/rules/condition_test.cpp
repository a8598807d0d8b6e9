#include "rules/condition.h"

#include <doctest/doctest.h>

namespace json = boost::json;

namespace {

struct Fixture {
  json::object system{{"platform", "linux"}};
  gd::LayerFacts kernel{"kernel-module", gd::Status::ok, "", {}, {}};
  std::map<std::string, const gd::LayerFacts*> layers;
  Fixture() {
    kernel.set("version", "535.104.05", "/proc/driver/nvidia/version");
    kernel.set("loaded", true);
    kernel.set("branch", 535);
    kernel.set("modules", json::object{{"nvidia_uvm", false}});
    kernel.set("claimed", json::array{"0000:01:00.0"});
    layers["kernel-module"] = &kernel;
  }
  bool holds(const char* condition, const json::value* item = nullptr) const {
    gd::FactView view(system, layers);
    return item ? gd::evaluate_condition(json::parse(condition), view.with_item(*item))
                : gd::evaluate_condition(json::parse(condition), view);
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
  const json::value text_item("junk");
  CHECK(f.holds(R"({"fact": "item", "exists": true})", &text_item));
}

TEST_CASE("validate_condition explains what is wrong") {
  CHECK(gd::validate_condition(json::parse(R"({"fact": "a.b", "eq": 1})")));
  CHECK(gd::validate_condition(json::parse(R"({"fact": "a.b", "equals": 1})")).error().find("unknown operator") != std::string::npos);
  CHECK_FALSE(gd::validate_condition(json::parse(R"({"fact": "a.b"})")));
  CHECK_FALSE(gd::validate_condition(json::parse(R"({"fact": "nodots", "eq": 1})")));
  CHECK_FALSE(gd::validate_condition(json::parse(R"({"all": []})")));
  CHECK_FALSE(gd::validate_condition(json::parse(R"({"fact": "a.b", "in": "x"})")));
  CHECK_FALSE(gd::validate_condition(json::parse(R"({"fact": "a.b", "eq": 1, "as": "number"})")));
  CHECK_FALSE(gd::validate_condition(json::parse(R"([1, 2])")));
}
