#include "probes/kernel_log.h"

#include "rules/rule_set.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("kernel log: NVRM lines, Xids with their catalogue meaning, timestamps and other lines dropped") {
  const auto rules = gd::load_embedded_rules();
  const auto facts = gd::parse_kernel_log(
      "[    1.000000] Linux version 6.1.0\n"
      "[ 7022.000001] NVRM: API mismatch: the client has the version 550.54.15, but\n"
      "[ 8301.123460] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
      "NVRM: Xid (PCI:0000:3b:00): 9999, pid=1, unknown code\n"
      "NVRM: Xid (PCI:broken\n",
      rules.cuda);
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
  const auto rules = gd::load_embedded_rules();
  gd::FakeHost host;
  gd::ChildAnswer refused;
  refused.exit = 1;
  refused.error_output = "dmesg: read kernel buffer failed: Operation not permitted\n";
  host.answers["command dmesg"] = refused;
  gd::ChildAnswer journal;
  journal.exit = 0;
  journal.output = "NVRM: RmInitAdapter failed! (0x22:0x56:762)\n";
  host.answers["command journalctl -k -b -o cat --no-pager -q"] = journal;
  const auto facts = gd::read_kernel_log(host, rules.cuda);
  CHECK(*facts.source == "journalctl");
  CHECK(facts.rm_init_failed);

  gd::FakeHost silent;
  CHECK_FALSE(gd::read_kernel_log(silent, rules.cuda).source);
  CHECK(silent.asked.size() == 2);
}

TEST_CASE("kernel log: a log cut to its newest lines says so, and keeps what it read") {
  const auto rules = gd::load_embedded_rules();
  gd::FakeHost host;
  gd::ChildAnswer cut;
  cut.exit = 0;
  cut.truncated = true;
  cut.output = "NVRM: Xid (PCI:0000:1b:00): 79, pid=1, GPU has fallen off the bus.\n";
  host.answers["command dmesg"] = cut;
  const auto facts = gd::read_kernel_log(host, rules.cuda);
  REQUIRE(facts.cut);
  CHECK(facts.cut->find("newest lines") != std::string::npos);
  CHECK(facts.fallen_off_bus);
  gd::ChildAnswer whole;
  whole.exit = 0;
  whole.output = cut.output;
  host.answers["command dmesg"] = whole;
  CHECK_FALSE(gd::read_kernel_log(host, rules.cuda).cut);
}
