#include "loader/search_path.h"

#include <doctest/doctest.h>

namespace {
const gd::DstValues k_values{std::string("/opt/app/lib"), "lib/x86_64-linux-gnu", "x86_64"};
}

TEST_CASE("dynamic string tokens") {
  CHECK(gd::expand_dst("$ORIGIN/../nvidia/cu13/lib", k_values) == "/opt/app/lib/../nvidia/cu13/lib");
  CHECK(gd::expand_dst("${ORIGIN}/x", k_values) == "/opt/app/lib/x");
  CHECK(gd::expand_dst("/usr/$LIB/nvidia", k_values) == "/usr/lib/x86_64-linux-gnu/nvidia");
  CHECK(gd::expand_dst("/p/$PLATFORM", k_values) == "/p/x86_64");
  CHECK(gd::expand_dst("$ORIGINX", k_values) == "$ORIGINX");  // not a token: copied literally
  CHECK(gd::expand_dst("$FOO/bar", k_values) == "$FOO/bar");
  CHECK_FALSE(gd::expand_dst("$ORIGIN/x", gd::DstValues{std::nullopt, "lib", "x86_64"}));
}

TEST_CASE("path lists: separators, empty elements, duplicates") {
  using gd::PathListKind;
  SUBCASE("LD_LIBRARY_PATH splits on ':' and ';'") {
    const auto list = gd::parse_path_list("/a;/b:/c", PathListKind::ld_library_path, k_values);
    REQUIRE(list.size() == 3);
    CHECK(list[1].dir == "/b");
  }
  SUBCASE("RUNPATH splits on ':' only") {
    CHECK(gd::parse_path_list("/a;/b", PathListKind::dynamic_section, k_values).size() == 1);
  }
  SUBCASE("an empty element is the current directory") {
    const auto list = gd::parse_path_list("$ORIGIN:", PathListKind::dynamic_section, k_values);
    REQUIRE(list.size() == 2);
    CHECK(list[1].dir.empty());
  }
  SUBCASE("trailing slashes trimmed and duplicates merged") {
    const auto list = gd::parse_path_list("/a/:/a", PathListKind::dynamic_section, k_values);
    REQUIRE(list.size() == 1);
    CHECK(list[0].dir == "/a");
  }
  SUBCASE("an element that cannot be expanded is dropped") {
    CHECK(gd::parse_path_list("$ORIGIN/x:/b", PathListKind::dynamic_section, gd::DstValues{std::nullopt, "lib", "x"}).size() == 1);
  }
}

TEST_CASE("a path list of 30,000 elements: repeats dropped in linear time, distinct ones capped") {
  std::string same, distinct;
  for (int i = 0; i < 30000; ++i) {
    same += "/usr/lib:";
    distinct += "/d/" + std::to_string(i) + ":";
  }
  const auto one = gd::parse_path_list(same, gd::PathListKind::ld_library_path, k_values);
  REQUIRE(one.size() == 2);  // /usr/lib and the trailing empty element
  CHECK(one[0].dir == "/usr/lib");
  CHECK(gd::parse_path_list(distinct, gd::PathListKind::ld_library_path, k_values).size() == gd::k_max_path_elements);
}

