#include "probes/vm_passthrough.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("vm passthrough: vfio-pci ids, the kernel command line, Proxmox hostpci lines and mappings, driver_override") {
  gd::FakeHost host;
  host.file("/etc/modprobe.d/vfio.conf", "# passthrough\noptions vfio-pci ids=10de:2204,10DE:1aef disable_vga=1\n");
  host.file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz quiet intel_iommu=on vfio-pci.ids=10de:2330:1234:5678\n");
  host.file("/etc/pve/qemu-server/101.conf", "cores: 8\nhostpci0: 0000:01:00,pcie=1,x-vga=1\nhostpci1: mapping=l4\n"
                                            "[snap]\nhostpci2: 0000:09:00.0\n");
  host.file("/etc/pve/qemu-server/102.conf", "hostpci0: 03:00.0;04:00.0\n");
  host.file("/etc/pve/mapping/pci.cfg", "pci: l4\n\tmap id=10de:27b8,node=pve,path=0000:81:00.0\n");
  host.file("/sys/bus/pci/devices/0000:5e:00.0/driver_override", "vfio-pci\n");
  host.file("/sys/bus/pci/devices/0000:5f:00.0/driver_override", "(null)\n");
  const auto config = gd::read_passthrough_config(host);
  const auto held = [&](const char* bdf, const char* id) {
    return gd::held_for_vm(host, config, bdf, id, std::string("/sys/bus/pci/devices/") + bdf);
  };
  CHECK(held("0000:01:00.0", "10de:9999") == "/etc/pve/qemu-server/101.conf: hostpci0");
  CHECK(held("0000:03:00.0", "10de:9999") == "/etc/pve/qemu-server/102.conf: hostpci0");
  CHECK(held("0000:04:00.0", "10de:9999") == "/etc/pve/qemu-server/102.conf: hostpci0");
  CHECK(held("0000:81:00.0", "10de:9999") == "/etc/pve/mapping/pci.cfg: map");
  CHECK(held("0000:aa:00.0", "10de:2204") == "/etc/modprobe.d/vfio.conf: options vfio-pci ids=10de:2204");
  CHECK(held("0000:aa:00.0", "10de:1aef"));
  CHECK(held("0000:aa:00.0", "10de:2330") == "/proc/cmdline: vfio-pci.ids=10de:2330");
  CHECK(held("0000:5e:00.0", "10de:9999") == "/sys/bus/pci/devices/0000:5e:00.0/driver_override: vfio-pci");
  CHECK_FALSE(held("0000:5f:00.0", "10de:9999"));  // Proxmox leaves driver_override empty
  CHECK_FALSE(held("0000:09:00.0", "10de:9999"));  // only a snapshot's config names it
  CHECK_FALSE(held("0000:10:00.0", "10de:9999"));  // 10:00 must not match 0000:01:00 or 81:00
}
