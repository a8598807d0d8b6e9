#include "probes/security_module.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

using gd::SecurityModule;

TEST_CASE("security module: an SELinux context, with selinuxfs's mode and container_use_devices where it is visible") {
  gd::FakeHost host;
  host.file("/proc/self/attr/current", std::string("system_u:system_r:container_t:s0:c12,c345\0", 42));
  auto facts = gd::read_security_module(host);
  REQUIRE(facts);
  CHECK(facts->module == SecurityModule::selinux);
  CHECK(facts->label == "system_u:system_r:container_t:s0:c12,c345");
  CHECK_FALSE(facts->enforcing);  // a container: no selinuxfs
  CHECK_FALSE(facts->container_use_devices);

  host.file("/sys/fs/selinux/enforce", "1");
  host.file("/sys/fs/selinux/booleans/container_use_devices", "0 0");
  facts = gd::read_security_module(host);
  REQUIRE(facts);
  CHECK(facts->enforcing == true);
  CHECK(facts->container_use_devices == false);
}

TEST_CASE("security module: an AppArmor profile and its mode; unconfined is no confinement") {
  auto docker = gd::parse_security_label("docker-default (enforce)\n");
  REQUIRE(docker);
  CHECK(docker->module == SecurityModule::apparmor);
  CHECK(docker->label == "docker-default (enforce)");
  CHECK(docker->enforcing == true);
  auto complain = gd::parse_security_label("snap.docker.dockerd (complain)\n");
  REQUIRE(complain);
  CHECK(complain->enforcing == false);
  CHECK_FALSE(gd::parse_security_label("unconfined\n"));
  CHECK_FALSE(gd::parse_security_label("crun (unconfined)\n"));

  gd::FakeHost host;  // stacked modules: AppArmor's own file
  host.file("/proc/self/attr/current", "");
  host.file("/proc/self/attr/apparmor/current", "lxc-container-default-cgns (enforce)\n");
  auto stacked = gd::read_security_module(host);
  REQUIRE(stacked);
  CHECK(stacked->module == SecurityModule::apparmor);
}

TEST_CASE("security module: nothing for no label, one neither module writes, or hostile bytes") {
  gd::FakeHost host;
  CHECK_FALSE(gd::read_security_module(host));
  CHECK_FALSE(gd::parse_security_label(""));
  CHECK_FALSE(gd::parse_security_label("_"));  // SMACK's floor label
  CHECK_FALSE(gd::parse_security_label("a b)"));
  auto hostile = gd::parse_security_label(std::string(5000, ':') + "\x1b[2J");
  REQUIRE(hostile);
  CHECK(hostile->label.size() <= 220);
  CHECK(hostile->label.find('\x1b') == std::string::npos);
}
