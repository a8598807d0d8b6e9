#include "probes/dpkg_status.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

bool fabric_manager(std::string_view name) { return name.starts_with("nvidia-fabricmanager"); }

// Stanzas as dpkg writes them: a removed package keeps its stanza, with "deinstall ok config-files".
constexpr const char* k_status =
    "Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u4\nDescription: GNU C Library\n"
    " a continuation line: Package: nvidia-fabricmanager-999\n\n"
    "Package: nvidia-fabricmanager-535\nStatus: deinstall ok config-files\nVersion: 535.161.08-1\n\n"
    "Package: nvidia-fabricmanager-550\nStatus: install ok installed\nPriority: optional\nVersion: 550.54.15-1\n";

}  // namespace

TEST_CASE("dpkg status: the installed package a probe wants, not a removed one's stanza or a description's text") {
  gd::FakeHost host;
  CHECK_FALSE(gd::find_installed_deb(host, fabric_manager));  // no status file: not a dpkg system
  host.file("/var/lib/dpkg/status", k_status);
  const auto found = gd::find_installed_deb(host, fabric_manager);
  REQUIRE(found);
  CHECK(found->name == "nvidia-fabricmanager-550");
  CHECK(found->version == "550.54.15-1");
  CHECK(found->upstream_version == "550.54.15");
  host.file("/var/lib/dpkg/status", "Package: nvidia-fabricmanager-535\nStatus: deinstall ok config-files\nVersion: 535.161.08-1\n");
  CHECK_FALSE(gd::find_installed_deb(host, fabric_manager));
  host.file("/var/lib/dpkg/status", "garbage\n\x01\x02: \n\nPackage:\nVersion: 1\n");
  CHECK_FALSE(gd::find_installed_deb(host, fabric_manager));
}

TEST_CASE("dpkg versions: the upstream release without epoch and Debian revision") {
  CHECK(gd::upstream_version("550.90.07-1") == "550.90.07");
  CHECK(gd::upstream_version("1:2.36-9+deb12u4") == "2.36");
  CHECK(gd::upstream_version("570.133.20") == "570.133.20");
  CHECK(gd::upstream_version("1.0-2-3") == "1.0-2");
}
