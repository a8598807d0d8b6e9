#include "probes/kernel_log.h"

#include "test_support/probe_fixture.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

#include <algorithm>

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
  CHECK(facts.xids[0].bdf == "0000:1b:00.0");  // with its function, as sysfs and dcgm-exporter name it
  CHECK(facts.xids[0].meaning.value().find("fallen off the bus") != std::string::npos);
  CHECK(facts.xids[0].action == gd::Action::reboot_node);  // NVIDIA: RESTART_BM
  CHECK_FALSE(facts.xids[1].meaning);  // not in the catalogue: no made-up meaning
  CHECK_FALSE(facts.key_rejected);
}

TEST_CASE("kernel log: Xids are counted per code and GPU, a flood is one entry, and the kept entries have a cap") {
  const auto& tables = gd::builtin_tables();
  std::string log;
  for (int i = 0; i < 5000; ++i)
    log += "[" + std::to_string(100 + i) + ".0] NVRM: Xid (PCI:0000:" + (i % 2 ? "1b" : "2a") + ":00): 95, pid=" + std::to_string(i) +
           ", Uncontained: FBHUB. RST: Yes, D-RST: No\n";
  log += "NVRM: Xid (PCI:0000:1b:00): 13, pid=7, name=a.out, Graphics Exception\n";
  auto facts = gd::parse_kernel_log(log, tables.cuda);
  REQUIRE(facts.xids.size() == 3);
  CHECK(facts.xid_lines == 5001);
  CHECK(facts.xids[0].bdf == "0000:2a:00.0");
  CHECK(facts.xids[0].count == 2500);
  CHECK(facts.xids[0].line.find("pid=4998") != std::string::npos);  // the newest line of the entry
  CHECK(facts.xids[1].count == 2500);
  CHECK(facts.xids[0].action == gd::Action::reset_gpu);
  CHECK(facts.xids[2].action == gd::Action::check_application);  // the application's fault, by NVIDIA and the device plugin
  CHECK(facts.xids[2].origin == "application");
  CHECK_FALSE(facts.xids_cut);

  std::string many;
  for (int code = 1; code <= 100; ++code) many += "NVRM: Xid (PCI:0000:1b:00): " + std::to_string(code) + ", x\n";
  facts = gd::parse_kernel_log(many, tables.cuda);
  CHECK(facts.xids.size() == 64);
  CHECK(facts.xid_lines == 100);
  CHECK(facts.xids_cut);

  // A flood of the application's own Xids on many GPUs does not hide a GPU fallen off the bus after it:
  // the fatal one takes the place of the first kept entry that needs nothing.
  std::string flood;
  for (int gpu = 0; gpu < 70; ++gpu)
    flood += "NVRM: Xid (PCI:0000:" + std::to_string(10 + gpu) + ":00): 13, pid=7, name=a.out, Graphics Exception\n";
  flood += "NVRM: Xid (PCI:0000:99:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n";
  flood += "NVRM: Xid (PCI:0000:10:00): 13, pid=8, name=a.out, Graphics Exception\n";  // the replaced entry's code again: counted only
  facts = gd::parse_kernel_log(flood, tables.cuda);
  CHECK(facts.xids.size() == 64);
  CHECK(facts.xid_lines == 72);
  CHECK(facts.xids_cut);
  CHECK(facts.xids[0].code == 79);
  CHECK(facts.xids[0].action == gd::Action::reboot_node);
  CHECK(facts.xids[0].count == 1);
  CHECK(std::count_if(facts.xids.begin(), facts.xids.end(), [](const gd::XidEvent& event) { return event.code == 13; }) == 63);

  // Xid 154 decides by its own line: past the cap, "Drain and Reset" is kept (the catalog's action for 154 is none),
  // and a kept 154 back at None, the driver's word that earlier Xids are recovered, is never the one pushed out.
  std::string recovery = "NVRM: Xid (PCI:0000:10:00): 154, GPU recovery action changed from 0x4 (Drain and Reset) to 0x0 (None)\n";
  for (int gpu = 0; gpu < 70; ++gpu)
    recovery += "NVRM: Xid (PCI:0000:" + std::to_string(20 + gpu) + ":00): 13, pid=7, name=a.out, Graphics Exception\n";
  recovery += "NVRM: Xid (PCI:0000:99:00): 154, GPU recovery action changed from 0x0 (None) to 0x4 (Drain and Reset)\n";
  facts = gd::parse_kernel_log(recovery, tables.cuda);
  REQUIRE(facts.xids.size() == 64);
  CHECK(facts.xids[0].bdf == "0000:10:00.0");
  CHECK(facts.xids[0].action == gd::Action::none);
  CHECK(facts.xids[1].bdf == "0000:99:00.0");
  CHECK(facts.xids[1].action == gd::Action::drain_and_reset);
  CHECK(facts.xids[1].recovery_action == "Drain and Reset");
}

TEST_CASE("kernel log: the line formats of MIG, of old drivers, and Xid 154's recovery action") {
  const auto& tables = gd::builtin_tables();
  auto facts = gd::parse_kernel_log(
      "NVRM: Xid (PCI:0000:01:00 GPU-I:05): 94, pid=7194, Contained: CE User Channel (0x9). RST: No, D-RST: No\n"
      "NVRM: Xid (0000:02:00): 31, Ch 00000010, engmask 00000101\n"
      "NVRM: Xid (PCI:0000:55:00): 48, pid=1, An uncorrectable double bit error\n"
      "NVRM: Xid (PCI:0000:55:00): 154, GPU recovery action changed from 0x0 (None) to 0x4 (Drain and Reset)\n",
      tables.cuda);
  REQUIRE(facts.xids.size() == 4);
  CHECK(facts.xids[0].bdf == "0000:01:00.0");  // the MIG instance is not part of the GPU's address
  CHECK(facts.xids[0].action == gd::Action::restart_workload);
  CHECK(facts.xids[1].bdf == "0000:02:00.0");
  CHECK(facts.xids[1].code == 31);
  CHECK(facts.xids[3].action == gd::Action::drain_and_reset);  // the driver's word, not the catalog's "none"
  CHECK(facts.xids[3].recovery_action == "Drain and Reset");
  CHECK(facts.xids[2].recovery_action == "Drain and Reset");  // the earlier Xid of that GPU shows what the driver asks
  CHECK_FALSE(facts.xids[2].recovered);
  CHECK(facts.xids[2].advice.value().find("nvidia-smi -r -i 0000:55:00.0") != std::string::npos);

  // Back to None after the reset: the driver says the recovery is done. A value newer
  // than the names gpudoctor knows has no action of its own.
  facts = gd::parse_kernel_log(
      "NVRM: Xid (PCI:0000:55:00): 48, pid=1, An uncorrectable double bit error\n"
      "NVRM: Xid (PCI:0000:55:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)\n"
      "NVRM: Xid (PCI:0000:55:00): 154, GPU recovery action changed from 0x1 (GPU Reset Required) to 0x0 (None)\n"
      "NVRM: Xid (PCI:0000:66:00): 154, GPU recovery action changed from 0x0 (None) to 0x5 (Recover IMEX Domain)\n"
      "NVRM: Xid (PCI:0000:55:00): 48, pid=2, An uncorrectable double bit error\n",
      tables.cuda);
  REQUIRE(facts.xids.size() == 3);
  CHECK(facts.xids[1].action == gd::Action::none);
  CHECK(facts.xids[1].count == 2);
  CHECK_FALSE(facts.xids[0].recovered);  // a Xid 48 after the recovery: not recovered
  CHECK(facts.xids[2].recovery_action == "Recover IMEX Domain");
  CHECK_FALSE(facts.xids[2].action);
}

TEST_CASE("kernel log: an NVSwitch's SXid is no GPU Xid; NVLink5's non-fatal events and an unknown recovery value ask for nothing") {
  const auto& tables = gd::builtin_tables();
  const auto facts = gd::parse_kernel_log(
      "nvidia-nvswitch0: SXid (PCI:0000:c3:00.0): 20009, Non-fatal, Link 32 RX Short Error Rate\n"
      // The driver writes "Nonfatal" (its printf: "Fatal" padded, or "Nonfatal"), and may name the process first.
      "NVRM: Xid (PCI:0000:1b:00): 145, pid=876767, name=ray::WorkerDict, RLW_RXPIPE Nonfatal XC0 i0 Link 13 (0x0409a0c2 0x00000008 0x00000001 0x00000000 0x00100000 0x00000004)\n"
      "NVRM: Xid (PCI:0000:2a:00): 145, RLW_REMAP  Non-fatal   XC0 i0 Link 03 (0x00000004 0x00000000)\n"
      "NVRM: Xid (PCI:0000:2a:00): 145, RLW_SRC_TRACK  Fatal   XC0 i0 Link 07 (0x00000400 0x00000000)\n"
      "NVRM: Xid (PCI:0000:3c:00): 154, GPU recovery action changed from 0x0 (None) to 0x3 (Drain P2P)\n"
      "NVRM: Xid (PCI:0000:4d:00): 154, GPU recovery action changed from 0x0 (None) to 0x5 (Recover IMEX Domain)\n",
      tables.cuda);
  REQUIRE(facts.xids.size() == 4);  // the SXid line is not among them
  CHECK(facts.xid_lines == 5);
  CHECK(facts.xids[0].action == gd::Action::none);              // non-fatal only
  CHECK(facts.xids[1].action == gd::Action::reset_gpu);         // one fatal line: the catalog's action
  CHECK(facts.xids[2].action == gd::Action::drain_and_reset);   // DRAIN_P2P: quiesce peer traffic, then reset
  CHECK_FALSE(facts.xids[3].action);                            // a value newer than gpudoctor's names
  CHECK(facts.xids[3].recovery_action == "Recover IMEX Domain");
}

TEST_CASE("kernel log: SXids are counted per code and NVSwitch by their reports, with the Fabric Manager guide's row") {
  const auto& tables = gd::builtin_tables();
  std::string log;
  for (int i = 0; i < 3; ++i)
    log += "[6781753.4] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 48 LTSSM Fault Up\n"
           "[6781753.4] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Severity 1 Engine instance 48 Sub-engine instance 00\n"
           "[6781753.4] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Data {0x00000004, 0x00000004}\n";
  log += "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 20034, Non-fatal, Link 02 LTSSM Fault Up\n"
         "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 29006, Non-fatal, Link 46 MC TS crumbstore MCTO (First)\n"
         "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): garbage\n";
  const auto facts = gd::parse_kernel_log(log, tables.cuda);
  REQUIRE(facts.sxids.size() == 3);
  CHECK(facts.sxids[0].nvswitch == "0000:06:00.0");
  CHECK(facts.sxids[0].count == 3);  // three reports, nine lines
  CHECK(facts.sxids[0].fatal_in_log);
  CHECK(facts.sxids[0].klass == "fatal");
  CHECK(facts.sxids[0].action == gd::Action::drain_and_reset);
  CHECK(facts.sxids[0].line.find("Fatal, Link 48") != std::string::npos);
  CHECK_FALSE(facts.sxids[1].fatal_in_log);  // the same code on another NVSwitch, reported non-fatal there
  CHECK_FALSE(facts.sxids[2].name);          // renumbered in driver 550: not in the guide's tables
  CHECK(facts.xids.empty());
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

TEST_CASE("kernel log: /dev/kmsg, a file, is read as the lines dmesg would print; where it cannot be, nothing") {
  const auto& tables = gd::builtin_tables();
  gd::FakeHost host;
  const std::string xid = "4,900,8301123460,-;NVRM: Xid (PCI:0000:1b:00): 79, pid=1, name=python, GPU has fallen off the bus.\n";
  host.records["/dev/kmsg"] = {xid + " SUBSYSTEM=pci\n", xid.size() + 14};
  const auto facts = gd::read_kernel_messages(host, tables.cuda);
  REQUIRE(facts);
  CHECK(*facts->source == "/dev/kmsg");
  CHECK(facts->fallen_off_bus == "NVRM: Xid (PCI:0000:1b:00): 79, pid=1, name=python, GPU has fallen off the bus.");
  REQUIRE(facts->xids.size() == 1);
  CHECK(facts->xids[0].code == 79);
  CHECK_FALSE(facts->cut);
  CHECK(host.asked.empty());  // no child

  host.records["/dev/kmsg"].read_bytes = 10 << 20;  // the device held more than was kept
  CHECK(gd::read_kernel_messages(host, tables.cuda)->cut);

  gd::FakeHost no_kmsg;
  CHECK_FALSE(gd::read_kernel_messages(no_kmsg, tables.cuda));
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
  const auto unpacked = gd::parse_kernel_log("[    3.9] decompression failed with status 6\n[    4.0] usb 1-1: new device\n", tables.cuda);
  CHECK(unpacked.module_decompression_failed == "decompression failed with status 6");
  CHECK(unpacked.lines.empty());  // not an NVIDIA line: kept as the fact alone
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

TEST_CASE("kernel log: an NVLink5 entry asks for its most disruptive line's action, and says how that line decoded") {
  const auto& tables = gd::builtin_tables();
  const auto facts = gd::parse_kernel_log(
      "NVRM: Xid (PCI:0019:01:00): 145, RLW_SRC_TRACK Nonfatal XC1 i0 Link 12 (0x040988e2 0x00000008 0x00000000 0x00000000)\n"
      "NVRM: Xid (PCI:0019:01:00): 145, RLW_SRC_TRACK  Fatal   XC0 i0 Link 12 (0x040988e2 0x00000010 0x00000000 0x00000000)\n"
      "NVRM: Xid (PCI:0019:01:00): 145, RLW_SRC_TRACK Nonfatal XC1 i0 Link 12 (0x040988e2 0x00000002 0x00000000 0x00000000)\n",
      tables.cuda);
  REQUIRE(facts.xids.size() == 1);
  CHECK(facts.xids[0].count == 3);
  CHECK(facts.xids[0].action == gd::Action::reset_gpu);  // the fatal line's, not the newest line's
  CHECK(facts.xids[0].nvlink5_decode == "RLW_SRC_TRACK errorStatus 0x10: RESET_GPU, CONTACT_SUPPORT");
  CHECK(facts.xids[0].advice == "Reset the GPU once nothing uses it (`sudo nvidia-smi -r -i 0019:01:00.0`), or reboot");
  CHECK(facts.xids[0].immediate == "RESET_GPU");  // the decoded row's buckets, not WORKFLOW_NVLINK5_ERR
  CHECK(facts.xids[0].investigatory == "CONTACT_SUPPORT");

  // A line the decode ignores says so in its advice, not the code's reset.
  const auto ignored = gd::parse_kernel_log(
      "NVRM: Xid (PCI:0018:01:00): 149, NETIR_BER_EVENT Nonfatal XC0 i0 Link 03 (0x00086226 0x00000001 0x00000000)\n", tables.cuda);
  REQUIRE(ignored.xids.size() == 1);
  CHECK(ignored.xids[0].action == gd::Action::none);
  CHECK(ignored.xids[0].advice->starts_with("Nothing for this line, unless the driver's own Xid 154 asks"));
  CHECK(ignored.xids[0].immediate == "IGNORE");
}

TEST_CASE("kernel log: the proprietary module's refusal of a Blackwell GPU, with the line before it that names the GPU") {
  const auto& tables = gd::builtin_tables();
  // dmesg prints the message's second line indented, without a timestamp; journalctl with its own prefix.
  const auto dmesg = gd::parse_kernel_log(
      "[    5.559842] NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58)\n"
      "               NVRM: installed in this system requires use of the NVIDIA open kernel modules.\n"
      "[    5.559858] NVRM: GPU 0000:02:00.0: RmInitAdapter failed! (0x22:0x56:884)\n",
      tables.cuda);
  CHECK(dmesg.open_module_required ==
        "NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58) NVRM: installed in this system requires use of the NVIDIA open kernel modules.");
  CHECK(dmesg.rm_init_failed);
  // Alone, the line is kept as it is; another GPU's earlier line is not taken for its first.
  const auto alone = gd::parse_kernel_log(
      "[    1.0] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  580.105.08\n"
      "[    5.5] NVRM: installed in this system requires use of the NVIDIA open kernel modules.\n",
      tables.cuda);
  CHECK(alone.open_module_required == "NVRM: installed in this system requires use of the NVIDIA open kernel modules.");
  CHECK_FALSE(gd::parse_kernel_log("NVRM: installed in this system is not supported by open nvidia.ko\n", tables.cuda).open_module_required);
}
