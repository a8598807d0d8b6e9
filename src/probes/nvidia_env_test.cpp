#include "probes/nvidia_env.h"

#include <doctest/doctest.h>

namespace json = boost::json;

namespace {
std::string mode_of(const std::optional<std::string>& value) {
  return std::string(gd::parse_visible_devices(value).at("mode").as_string());
}
}  // namespace

TEST_CASE("NVIDIA_VISIBLE_DEVICES modes follow the toolkit") {
  SUBCASE("unset") { CHECK(mode_of(std::nullopt) == "unset"); }
  SUBCASE("empty") { CHECK(mode_of(std::string("  ")) == "empty"); }
  SUBCASE("void anywhere wins") { CHECK(mode_of(std::string("all,void")) == "void"); }
  SUBCASE("all, case-insensitive") { CHECK(mode_of(std::string("ALL")) == "all"); }
  SUBCASE("none") { CHECK(mode_of(std::string("none")) == "none"); }
  SUBCASE("a list") { CHECK(mode_of(std::string("0,1")) == "list"); }
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES entries are classified by selector form") {
  auto parsed = gd::parse_visible_devices(
      std::string("0, GPU-12345678-1234-1234-1234-123456789abc,MIG-abc,1:2,00000000:1b:00.0,nvidia.com/gpu=all,bogus!"));
  const auto& entries = parsed.at("entries").as_array();
  REQUIRE(entries.size() == 6);
  CHECK(entries[0].at("kind").as_string() == "index");
  CHECK(entries[1].at("kind").as_string() == "gpu-uuid");
  CHECK(entries[2].at("kind").as_string() == "mig-uuid");
  CHECK(entries[3].at("kind").as_string() == "mig-index");
  CHECK(entries[4].at("kind").as_string() == "bus-id");
  CHECK(entries[5].at("kind").as_string() == "cdi");
  REQUIRE(parsed.at("invalid").as_array().size() == 1);
  CHECK(parsed.at("invalid").as_array()[0].as_string() == "bogus!");
}

TEST_CASE("an absurd NVIDIA_VISIBLE_DEVICES is bounded, not trusted") {
  std::string huge;
  for (int i = 0; i < 100000; ++i) huge += "x\x01,";
  auto parsed = gd::parse_visible_devices(huge);
  CHECK(parsed.at("invalid").as_array().size() == 1);  // the same junk, reported once
  CHECK(parsed.at("value").as_string().size() < 300);
}

TEST_CASE("many different bad entries are capped with a marker") {
  std::string many;
  for (int i = 0; i < 50; ++i) many += "bad" + std::to_string(i) + "!,";
  const auto parsed = gd::parse_visible_devices(many);
  const auto& invalid = parsed.at("invalid").as_array();
  REQUIRE(invalid.size() == 9);
  CHECK(invalid.back().as_string() == "(more entries not shown)");
}

TEST_CASE("NVIDIA_DRIVER_CAPABILITIES defaults, all, and unknown values") {
  auto defaults = gd::parse_driver_capabilities(std::nullopt);
  CHECK(defaults.at("effective").as_array() == json::array{"utility", "compute"});
  auto everything = gd::parse_driver_capabilities(std::string("all"));
  CHECK(everything.at("effective").as_array().size() == 7);
  auto mixed = gd::parse_driver_capabilities(std::string("utility,Compute,gpu"));
  CHECK(mixed.at("effective").as_array() == json::array{"utility", "compute"});
  CHECK(mixed.at("invalid").as_array() == json::array{"gpu"});
}

TEST_CASE("expected injection follows the capabilities") {
  auto utility_only = gd::expected_injection(json::array{"utility"});
  CHECK(utility_only.at("libraries").as_array() == json::array{"libnvidia-ml.so.1"});
  auto compute = gd::expected_injection(json::array{"compute"});
  CHECK(compute.at("device_nodes").as_array().size() == 4);
}
