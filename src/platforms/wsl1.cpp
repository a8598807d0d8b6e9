// WSL1 translates Linux system calls in Windows' own kernel: uname says
// Microsoft too, but there is no /dev/dxg and no GPU for CUDA at all. Asked
// after WSL2, which claims every Microsoft kernel that has either.
#include "platforms/machine_platform.h"

#include "util/text.h"

namespace gd {

namespace {

std::optional<std::string> detect(const PlatformClues& clues) {
  if (!contains(clues.release, "microsoft")) return std::nullopt;
  return "uname -r names Microsoft, without WSL2 or /dev/dxg";
}

}  // namespace

// No GPU at all: the bus is listed (and empty), and there is no module or node to expect.
extern const PlatformMethod wsl1_platform{
    .platform = Platform::wsl1,
    .detect = detect,
    .module_elsewhere = "WSL: the Windows driver serves the GPU through /dev/dxg; there is no Linux nvidia module",
    .nodes = NodesExpected::never,
};

}  // namespace gd
