#include "facts/system_facts.h"

namespace gd {

const char* enum_name(Platform platform) {
  switch (platform) {
    case Platform::native_linux: return "linux";
    case Platform::wsl2: return "wsl2";
    case Platform::wsl1: return "wsl1";
    case Platform::gvisor: return "gvisor";
  }
  return "linux";
}

}  // namespace gd
