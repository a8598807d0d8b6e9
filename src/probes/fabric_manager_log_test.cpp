#include "probes/fabric_manager_log.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

constexpr const char* k_refusal =
    "[Nov 05 2025 13:55:26] [ERROR] [tid 104230] fabric manager NVIDIA GPU driver interface version 550.127.05 "
    "doesn't match with driver version 550.120. Please update with the matching NVIDIA driver package.\n";

}  // namespace

TEST_CASE("fabric manager log: the refusal of another driver names both versions; the newest wins") {
  const auto facts = gd::parse_fabric_manager_log(
      "[Jul 09 2024 18:14:07] [INFO] [tid 12727] Fabric Manager starting\n"
      "fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver version 530.41.03. Please update\n" +
      std::string(k_refusal) +
      "[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:86:00.0 physical id 3 port 33\n"
      "[Sep 08 2025 23:21:50] [ERROR] detected number of NVSwitches don't match with any supported system topology, aborting fabric manager\n");
  CHECK(facts.fabric_manager_version == "550.127.05");
  CHECK(facts.driver_version == "550.120");
  CHECK(facts.nvswitch_fatal_errors == 1);
  CHECK(facts.topology_mismatch);
}

TEST_CASE("fabric manager log: a refusal without versions is no refusal") {
  const auto facts = gd::parse_fabric_manager_log("driver interface version  don't match with driver version x\n");
  CHECK_FALSE(facts.version_mismatch);
  CHECK_FALSE(facts.fabric_manager_version);
}

TEST_CASE("fabric manager log: a long log is read from its end; the journal only where Fabric Manager is not running") {
  gd::FakeHost host;
  host.file("/var/log/fabricmanager.log", std::string(300 * 1024, 'x') + "\n" + k_refusal);
  const auto running = gd::read_fabric_manager_log(host, gd::Nullable<bool>(true));
  REQUIRE(running);
  CHECK(running->cut);
  CHECK(running->mismatch_source == "/var/log/fabricmanager.log");
  CHECK(host.asked.empty());

  gd::FakeHost journal_only;
  gd::ChildAnswer refusal;
  refusal.exit = 0;
  refusal.output = k_refusal;
  journal_only.answers["command journalctl -u nvidia-fabricmanager.service -b -o cat --no-pager -q -n 200"] = refusal;
  const auto stopped = gd::read_fabric_manager_log(journal_only, gd::Nullable<bool>(false));
  REQUIRE(stopped);
  CHECK(stopped->driver_version == "550.120");
  CHECK(stopped->mismatch_source == "journalctl -u nvidia-fabricmanager.service");
  CHECK_FALSE(gd::read_fabric_manager_log(journal_only, gd::Nullable<bool>(true)));
}
