#include "probes/system_probe.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("system: the platform the table names, with what said so; plain Linux without") {
  gd::FakeHost host;
  host.kernel.release = "4.4.0-19041-Microsoft";
  auto facts = gd::probe_system(host);
  CHECK(facts.platform == gd::Platform::wsl1);
  REQUIRE(facts.platform_evidence);
  CHECK(facts.platform_evidence->find("Microsoft") != std::string::npos);
  CHECK(facts.kernel_release == "4.4.0-19041-Microsoft");

  host.kernel.release = "6.1.0-18-amd64";
  facts = gd::probe_system(host);
  CHECK(facts.platform == gd::Platform::native_linux);
  CHECK_FALSE(facts.platform_evidence);
  CHECK(facts.uid == 1000);
}
