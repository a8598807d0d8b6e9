#pragma once
// One table of the architectures the loader simulation knows: ELF machine
// number and class, and what glibc and musl call and expect for each. Every
// question about an architecture is answered here, nowhere else.

#include <cstdint>
#include <string_view>
#include <vector>

namespace gd {

struct Architecture {
  std::uint16_t machine;          // e_machine
  int bits;                       // ELF class
  std::string_view name;          // as messages say it: "x86-64"
  std::string_view uname;         // uname -m
  std::string_view glibc_loader;  // PT_INTERP of a glibc program
  std::string_view musl_arch;     // musl's /lib/ld-musl-ARCH.so.1 and /etc/ld-musl-ARCH.path
  std::string_view triplet;       // Debian multiarch directory
  std::vector<std::int32_t> cache_flags;  // ld.so.cache flags the loader accepts, the exact one first
};

// nullptr for an architecture outside the table.
const Architecture* find_architecture(std::uint16_t machine, int bits);
const Architecture* architecture_of_uname(std::string_view uname_machine);
// "x86-64", "aarch64", ... or "other".
std::string_view elf_machine_name(std::uint16_t machine);

inline constexpr std::uint16_t k_em_x86_64 = 62;

}  // namespace gd
