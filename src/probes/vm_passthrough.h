#pragma once
// A host that keeps GPUs for its virtual machines says so in files: vfio-pci's
// ids (an `options vfio-pci ids=` line of modprobe.d, `vfio-pci.ids=` on the
// kernel command line), a device's driver_override, Proxmox's hostpci lines
// (/etc/pve/qemu-server/VMID.conf) and PCI mappings (/etc/pve/mapping/pci.cfg).

#include "host/host.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

struct PassthroughConfig {
  struct Entry {
    std::string key;    // "10de:2204" for an id, "0000:01:00" (bus:device, function optional) for an address
    std::string where;  // "/etc/pve/qemu-server/101.conf: hostpci0"
  };
  std::vector<Entry> ids, addresses;
};

PassthroughConfig read_passthrough_config(Host& host);

// Where the host says GPU `bdf` (vendor:device `id`) is meant for a VM, or
// nullopt. sysfs_dir is its /sys/bus/pci/devices directory (driver_override).
std::optional<std::string> held_for_vm(Host& host, const PassthroughConfig& config, const std::string& bdf,
                                       const std::string& id, const std::string& sysfs_dir);

}  // namespace gd
