#pragma once
// What a probe's unit test starts from: the built-in rules (their tables),
// a FakeHost to fill, and a ProbeContext over them (system facts probed
// from the host).

#include "probes/probe_context.h"
#include "probes/system_probe.h"
#include "rules/rule_set.h"
#include "test_support/fake_host.h"

#include <string>

namespace gd {

// The built-in rules' tables, loaded once for the whole test binary.
inline const ReferenceTables& builtin_tables() {
  static const RuleSet rules = load_embedded_rules();
  return rules.tables;
}

struct ProbeFixture {
  RuleSet rules = load_embedded_rules();
  FakeHost host;

  ProbeContext context() { return {host, rules.tables, probe_system(host), {}, {}, {}, {}, {}, {}}; }

  // An NVIDIA GPU function in sysfs, x8 in an x16 slot, bound to driver (or to nothing).
  void pci_gpu(const std::string& bdf, const std::string& device, const std::string& driver) {
    const std::string dir = "/sys/bus/pci/devices/" + bdf;
    host.file(dir + "/vendor", "0x10de\n").file(dir + "/device", "0x" + device + "\n").file(dir + "/class", "0x030200\n");
    host.file(dir + "/current_link_width", "8\n").file(dir + "/max_link_width", "16\n");
    if (!driver.empty()) host.link(dir + "/driver", "../../../bus/pci/drivers/" + driver);
  }
};

}  // namespace gd
