#pragma once
// The binary files tests and scenarios need, written byte by byte from their
// specifications: minimal ELF shared objects (SONAME, DT_NEEDED, RPATH or
// RUNPATH, a cuda-compat note, a .nv_fatbin section), nvcc's fat binary
// containers, kernel modules' .modinfo and glibc's ld.so.cache. One writer
// per format: the unit tests call these, the scenario generator calls them
// through write_binary (write_binary_main.cpp), and binary_writer_test holds
// them to readelf, ldconfig and modinfo.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gd {

struct FatbinEntrySpec {
  int kind = 2;  // 1 PTX, 2 SASS
  int arch = 0;  // 80 for sm_80 / compute_80
  int major = 0, minor = 0;  // the code version (SASS) or PTX ISA
  std::uint64_t flags = 0;   // beyond 64-bit Linux: 0x2000 compressed
};

// A 16-byte container header, then per entry a 64-byte header and an 8-byte payload.
std::string fatbin_container(const std::vector<FatbinEntrySpec>& entries);

struct TinyElfSpec {
  std::string soname;
  std::vector<std::string> needed{};
  std::optional<std::string> runpath{}, rpath{};
  int machine = 62;                          // EM_X86_64; 183 aarch64
  std::optional<std::string> fwd_note{};     // the JSON of cuda-compat's .note.cuda.fwd_compatibility
  std::optional<std::vector<FatbinEntrySpec>> fatbin{};  // a .nv_fatbin section
};

// A 64-bit little-endian shared object: a header, PT_LOAD over the whole file
// and PT_DYNAMIC; section headers only for the note or fatbin it carries.
std::string tiny_elf(const TinyElfSpec& spec);

// A shared object whose only content is a .nv_fatbin section, found through
// its section headers; damaged: the container claims more than the section has.
std::string fatbin_elf(const std::vector<FatbinEntrySpec>& entries, bool damaged = false);

// A relocatable object (a kernel module) with a .modinfo of NUL-ended key=value strings, in order.
// signed_: a module signature appended as scripts/sign-file appends one (a
// PKCS#7 blob, struct module_signature, "~Module signature appended~\n").
std::string tiny_module(const std::vector<std::pair<std::string, std::string>>& modinfo, bool signed_ = false);

// A Go program (ET_EXEC, x86-64) whose only content is its .go.buildinfo
// section as Go 1.18 and later write it: the header, the Go release and the
// module information (runtime/debug's lines: "path\t...", "mod\t...",
// "build\t-ldflags=...") framed as the linker frames it. pre_1_18: the flag
// that says the strings are inline left clear, as older releases leave it.
std::string go_program(const std::string& go_version, const std::string& module_lines, bool pre_1_18 = false);

struct LdCacheEntrySpec {
  std::string soname, path;
  std::uint32_t flags = 0x0303;  // x86-64 libc6; 0x0a03 aarch64
};

// /etc/ld.so.cache in glibc's new format ("glibc-ld.so.cache1.1"), entries in
// ldconfig's order (descending by name); those of one name in the given order.
std::string ld_cache(const std::vector<LdCacheEntrySpec>& entries);

// A PCI function's Vital Product Data as sysfs' vpd file gives it (PCI Local
// Bus 3.0, appendix I): the identifier string, a VPD-R resource of the given
// two-letter keywords closed by RV (its checksum byte makes the bytes up to
// it sum to zero), and the end tag.
std::string pci_vpd(const std::string& identifier, const std::vector<std::pair<std::string, std::string>>& read_only);

}  // namespace gd
