#include "probes/system_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("system: the platform from uname and the nodes") {
  gd::ProbeFixture f;
  SUBCASE("plain Linux") { CHECK(f.context().system.platform == gd::Platform::native_linux); }
  SUBCASE("WSL2 by its kernel release") {
    f.host.kernel.release = "5.15.153.1-microsoft-standard-WSL2";
    CHECK(f.context().system.platform == gd::Platform::wsl2);
  }
  SUBCASE("WSL1: Microsoft without /dev/dxg") {
    f.host.kernel.release = "4.4.0-19041-Microsoft";
    CHECK(f.context().system.platform == gd::Platform::wsl1);
  }
}
