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

extern const PlatformMethod wsl1_platform{Platform::wsl1, detect};

}  // namespace gd
