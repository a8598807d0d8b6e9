// gVisor's sentry answers uname with "...-gvisor" where it is configured to;
// otherwise its synthetic /proc gives it away: /proc/driver/nvidia keeps only
// params (nvproxy's), and /sys/module is empty.
#include "platforms/machine_platform.h"

#include "util/text.h"

namespace gd {

namespace {

std::optional<std::string> detect(const PlatformClues& clues) {
  if (contains(clues.release, "gvisor")) return "uname -r names gVisor";
  const auto modules = clues.host.list_dir("/sys/module");
  if (modules && modules->empty() && clues.host.exists("/proc/driver/nvidia/params") &&
      !clues.host.exists("/proc/driver/nvidia/version"))
    return "/sys/module is empty and /proc/driver/nvidia has params but no version (gVisor's synthetic /proc)";
  return std::nullopt;
}

}  // namespace

// nvproxy forwards the sandbox's /dev/nvidia* to the host's driver: the
// nodes are expected; the bus and the module are the host's, out of sight.
extern const PlatformMethod gvisor_platform{
    .platform = Platform::gvisor,
    .detect = detect,
    .pci_hidden = "gVisor hides the PCI bus; the GPU is reached through nvproxy",
    .module_elsewhere = "gVisor: nvproxy forwards to the host driver, whose module is not visible in the sandbox",
    .nodes = NodesExpected::always,
};

}  // namespace gd
