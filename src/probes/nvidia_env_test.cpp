#include "probes/nvidia_env.h"

#include <doctest/doctest.h>

namespace {
std::string mode_of(const std::optional<std::string>& value) {
  return gd::enum_name(gd::parse_visible_devices(value).mode);
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
  using gd::SelectorKind;
  const auto& entries = *parsed.entries;
  REQUIRE(entries.size() == 6);
  CHECK(entries[0].kind == SelectorKind::index);
  CHECK(entries[1].kind == SelectorKind::gpu_uuid);
  CHECK(entries[2].kind == SelectorKind::mig_uuid);
  CHECK(entries[3].kind == SelectorKind::mig_index);
  CHECK(entries[4].kind == SelectorKind::bus_id);
  CHECK(entries[5].kind == SelectorKind::cdi);
  CHECK(gd::to_fact_object(entries[1]).at("kind").as_string() == "gpu-uuid");  // the name rules compare with
  CHECK(*parsed.invalid == std::vector<std::string>{"bogus!"});
}

TEST_CASE("an absurd NVIDIA_VISIBLE_DEVICES is bounded, not trusted") {
  std::string huge;
  for (int i = 0; i < 100000; ++i) huge += "x\x01,";
  auto parsed = gd::parse_visible_devices(huge);
  CHECK(parsed.invalid->size() == 1);  // the same junk, reported once
  CHECK(parsed.value->size() < 300);
}

TEST_CASE("many different bad entries are capped with a marker") {
  std::string many;
  for (int i = 0; i < 50; ++i) many += "bad" + std::to_string(i) + "!,";
  const auto parsed = gd::parse_visible_devices(many);
  const auto& invalid = *parsed.invalid;
  REQUIRE(invalid.size() == 9);
  CHECK(invalid.back() == "(more entries not shown)");
}

TEST_CASE("NVIDIA_DRIVER_CAPABILITIES defaults, all, and unknown values") {
  auto defaults = gd::parse_driver_capabilities(std::nullopt);
  using Names = std::vector<std::string>;
  CHECK(defaults.effective == Names{"utility", "compute"});
  auto everything = gd::parse_driver_capabilities(std::string("all"));
  CHECK(everything.effective.size() == 7);
  auto mixed = gd::parse_driver_capabilities(std::string("utility,Compute,gpu"));
  CHECK(mixed.effective == Names{"utility", "compute"});
  CHECK(mixed.invalid == Names{"gpu"});
}

TEST_CASE("expected injection follows the capabilities") {
  auto utility_only = gd::expected_injection(gd::parse_driver_capabilities(std::string("utility")));
  CHECK(utility_only.libraries == std::vector<std::string>{"libnvidia-ml.so.1"});
  auto compute = gd::expected_injection(gd::parse_driver_capabilities(std::string("compute")));
  CHECK(compute.device_nodes.size() == 4);
}
