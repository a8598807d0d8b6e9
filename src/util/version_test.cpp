#include "util/version.h"

#include <doctest/doctest.h>

using gd::Version;

TEST_CASE("Version compares numerically, component by component") {
  CHECK(*Version::parse("535.104.05") > *Version::parse("535.54.03"));
  CHECK(*Version::parse("12.10") > *Version::parse("12.9"));
  CHECK(*Version::parse("12") == *Version::parse("12.0"));
  CHECK(*Version::parse("550.54.14") < *Version::parse("550.54.15"));
  CHECK(Version::parse("535.104.05")->text() == "535.104.05");
}

TEST_CASE("Version rejects anything but dotted decimals") {
  SUBCASE("empty") { CHECK_FALSE(Version::parse("")); }
  SUBCASE("separators") {
    CHECK_FALSE(Version::parse("."));
    CHECK_FALSE(Version::parse("1..2"));
    CHECK_FALSE(Version::parse("1.2."));
  }
  SUBCASE("letters") { CHECK_FALSE(Version::parse("550.54a")); }
  SUBCASE("too many parts") { CHECK_FALSE(Version::parse("1.2.3.4.5")); }
  SUBCASE("absurdly long component") { CHECK_FALSE(Version::parse("99999999999999999999")); }
}

TEST_CASE("find_driver_version picks the driver version out of /proc text") {
  auto found = gd::find_driver_version(
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024");
  REQUIRE(found);
  CHECK(found->text() == "550.54.14");
  CHECK(gd::find_driver_version("Open Kernel Module for x86_64  570.133.20  Release Build")->text() ==
        "570.133.20");
  CHECK_FALSE(gd::find_driver_version("gcc version 12.2.0 (Debian 12.2.0-14)"));
  CHECK_FALSE(gd::find_driver_version("no digits here"));
  CHECK_FALSE(gd::find_driver_version("x86_64 10.2"));
}
