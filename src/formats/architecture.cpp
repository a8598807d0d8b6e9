#include "formats/architecture.h"

namespace gd {
namespace {

// Loader paths: glibc's sysdeps/*/ldsodefs.h and shlib-versions; musl's
// arch names; cache flags: glibc's sysdeps/generic/ldconfig.h (FLAG_ELF_LIBC6
// with the architecture's FLAG_*_LIB64 and friends).
const std::vector<Architecture>& table() {
  static const std::vector<Architecture> architectures = {
      {62, 64, "x86-64", "x86_64", "/lib64/ld-linux-x86-64.so.2", "x86_64", "x86_64-linux-gnu", {0x0303}},
      {62, 32, "x86-64", "x86_64", "/libx32/ld-linux-x32.so.2", "x32", "x86_64-linux-gnux32", {0x0803}},
      {183, 64, "aarch64", "aarch64", "/lib/ld-linux-aarch64.so.1", "aarch64", "aarch64-linux-gnu", {0x0a03}},
      {3, 32, "i386", "i686", "/lib/ld-linux.so.2", "i386", "i386-linux-gnu", {3, 1}},
      {40, 32, "arm", "armv7l", "/lib/ld-linux-armhf.so.3", "armhf", "arm-linux-gnueabihf", {0x0903, 3}},
      {21, 64, "ppc64", "ppc64le", "/lib64/ld64.so.2", "powerpc64le", "powerpc64le-linux-gnu", {0x0503}},
      {22, 64, "s390", "s390x", "/lib/ld64.so.1", "s390x", "s390x-linux-gnu", {0x0403}},
      {243, 64, "riscv", "riscv64", "/lib/ld-linux-riscv64-lp64d.so.1", "riscv64", "riscv64-linux-gnu", {0x1003}},
  };
  return architectures;
}

}  // namespace

const Architecture* find_architecture(std::uint16_t machine, int bits) {
  for (const auto& architecture : table())
    if (architecture.machine == machine && architecture.bits == bits) return &architecture;
  return nullptr;
}

const Architecture* architecture_of_uname(std::string_view uname_machine) {
  for (const auto& architecture : table())
    if (architecture.uname == uname_machine) return &architecture;
  return nullptr;
}

std::string_view elf_machine_name(std::uint16_t machine) {
  for (const auto& architecture : table())
    if (architecture.machine == machine) return architecture.name;
  return "other";
}

}  // namespace gd
