// WSL2 runs a real Linux kernel built by Microsoft ("5.15.153.1-microsoft-
// standard-WSL2"); its GPU is reached through /dev/dxg, the paravirtual
// device of Windows' driver, not through /dev/nvidia*.
#include "platforms/machine_platform.h"

#include "util/text.h"

namespace gd {

namespace {

std::optional<std::string> detect(const PlatformClues& clues) {
  if (!contains(clues.release, "microsoft")) return std::nullopt;
  if (contains(clues.release, "wsl2")) return "uname -r names WSL2";
  if (clues.host.device("/dev/dxg")) return "uname -r names Microsoft, and /dev/dxg is present";
  return std::nullopt;
}

}  // namespace

extern const PlatformMethod wsl2_platform{
    .platform = Platform::wsl2,
    .detect = detect,
    .pci_hidden = "PCI is not visible under WSL2; the GPU is reached through /dev/dxg",
    .module_elsewhere = "WSL: the Windows driver serves the GPU through /dev/dxg; there is no Linux nvidia module",
    .nodes = NodesExpected::never,
    .through_dxg = true,
    .driver_share = "/usr/lib/wsl/lib",
};

}  // namespace gd
