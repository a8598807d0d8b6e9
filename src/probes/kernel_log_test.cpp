#include "probes/kernel_log.h"

#include "test_support/probe_fixture.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("kernel log: NVRM lines, Xids with their catalogue meaning, timestamps and other lines dropped") {
  const auto& tables = gd::builtin_tables();
  const auto facts = gd::parse_kernel_log(
      "[    1.000000] Linux version 6.1.0\n"
      "[ 7022.000001] NVRM: API mismatch: the client has the version 550.54.15, but\n"
      "[ 8301.123460] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
      "NVRM: Xid (PCI:0000:3b:00): 9999, pid=1, unknown code\n"
      "NVRM: Xid (PCI:broken\n",
      tables.cuda);
  CHECK(facts.lines.size() == 4);
  CHECK(facts.api_mismatch.value().starts_with("NVRM: API mismatch"));
  CHECK(facts.fallen_off_bus);
  REQUIRE(facts.xids.size() == 2);
  CHECK(facts.xids[0].code == 79);
  CHECK(facts.xids[0].bdf == "0000:1b:00");
  CHECK(facts.xids[0].meaning.value().find("fallen off the bus") != std::string::npos);
  CHECK_FALSE(facts.xids[1].meaning);  // not in the catalogue: no made-up meaning
  CHECK_FALSE(facts.key_rejected);
}

TEST_CASE("kernel log: dmesg first, journalctl when dmesg is refused, nothing when neither answers") {
  const auto& tables = gd::builtin_tables();
  gd::FakeHost host;
  gd::ChildAnswer refused;
  refused.exit = 1;
  refused.error_output = "dmesg: read kernel buffer failed: Operation not permitted\n";
  host.answers["command dmesg"] = refused;
  gd::ChildAnswer journal;
  journal.exit = 0;
  journal.output = "NVRM: RmInitAdapter failed! (0x22:0x56:762)\n";
  host.answers["command journalctl -k -b -o cat --no-pager -q"] = journal;
  const auto facts = gd::read_kernel_log(host, tables.cuda);
  CHECK(*facts.source == "journalctl");
  CHECK(facts.rm_init_failed);

  gd::FakeHost silent;
  CHECK_FALSE(gd::read_kernel_log(silent, tables.cuda).source);
  CHECK(silent.asked.size() == 2);
}

TEST_CASE("kernel log: a log cut to its newest lines says so, and keeps what it read") {
  const auto& tables = gd::builtin_tables();
  gd::FakeHost host;
  gd::ChildAnswer cut;
  cut.exit = 0;
  cut.truncated = true;
  cut.output = "NVRM: Xid (PCI:0000:1b:00): 79, pid=1, GPU has fallen off the bus.\n";
  host.answers["command dmesg"] = cut;
  const auto facts = gd::read_kernel_log(host, tables.cuda);
  REQUIRE(facts.cut);
  CHECK(facts.cut->find("newest lines") != std::string::npos);
  CHECK(facts.fallen_off_bus);
  gd::ChildAnswer whole;
  whole.exit = 0;
  whole.output = cut.output;
  host.answers["command dmesg"] = whole;
  CHECK_FALSE(gd::read_kernel_log(host, tables.cuda).cut);
}

TEST_CASE("kernel log: signature refusals that name no module, and missing GSP firmware, are kept") {
  const auto& tables = gd::builtin_tables();
  const auto unsigned_ = gd::parse_kernel_log("[    4.1] Loading of unsigned module is rejected\n", tables.cuda);
  CHECK(unsigned_.lines.size() == 1);
  CHECK(unsigned_.key_rejected == "Loading of unsigned module is rejected");
  const auto no_key = gd::parse_kernel_log("[    4.1] Loading of module with unavailable key is rejected\n", tables.cuda);
  CHECK(no_key.key_rejected == "Loading of module with unavailable key is rejected");
  const auto lockdown = gd::parse_kernel_log(
      "[    4.1] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n", tables.cuda);
  CHECK(lockdown.key_rejected);
  const auto firmware = gd::parse_kernel_log(
      "[    5.3] nvidia 0000:01:00.0: Direct firmware load for nvidia/550.54.15/gsp_ga10x.bin failed with error -2\n"
      "[    5.3] NVRM: RmFetchGspRmImages: No firmware image found\n"
      "[    5.3] iwlwifi 0000:00:14.3: Direct firmware load for iwlwifi-so-a0-gf-a0-86.ucode failed with error -2\n",
      tables.cuda);
  CHECK(firmware.firmware_missing == "NVRM: RmFetchGspRmImages: No firmware image found");
  CHECK(firmware.lines.size() == 2);  // another device's firmware is not ours
  CHECK_FALSE(firmware.gsp_error);    // 'Gsp' in a function name is not a GSP failure
}
