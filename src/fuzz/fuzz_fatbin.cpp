// libFuzzer target: the input as the .nv_fatbin section of a minimal ELF
// file, so that the fuzzer works on fat binary containers and entries.
#include "formats/fatbin.h"
#include "test_support/fake_host.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace {

void put(std::string& bytes, std::size_t at, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
}

// ELF64 header, the section, ".shstrtab", then three section headers (null, .nv_fatbin, .shstrtab).
std::string elf_around(std::string_view section) {
  const std::string names("\0.nv_fatbin\0.shstrtab\0", 22);
  const std::size_t data_at = 64, names_at = data_at + section.size(), table_at = (names_at + names.size() + 7) & ~std::size_t{7};
  std::string bytes(table_at + 3 * 64, '\0');
  std::memcpy(bytes.data(), "\x7f" "ELF\x02\x01\x01", 7);
  put(bytes, 16, 3, 2);
  put(bytes, 18, 62, 2);
  put(bytes, 20, 1, 4);
  put(bytes, 40, table_at, 8);
  put(bytes, 52, 64, 2);
  put(bytes, 54, 56, 2);
  put(bytes, 58, 64, 2);
  put(bytes, 60, 3, 2);
  put(bytes, 62, 2, 2);
  bytes.replace(data_at, section.size(), section);
  bytes.replace(names_at, names.size(), names);
  const std::size_t fatbin = table_at + 64, strtab = table_at + 128;
  put(bytes, fatbin, 1, 4);
  put(bytes, fatbin + 4, 1, 4);
  put(bytes, fatbin + 24, data_at, 8);
  put(bytes, fatbin + 32, section.size(), 8);
  put(bytes, strtab, 12, 4);
  put(bytes, strtab + 4, 3, 4);
  put(bytes, strtab + 24, names_at, 8);
  put(bytes, strtab + 32, names.size(), 8);
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gd::FakeHost host;
  host.file("/lib/libgpu.so", elf_around(std::string_view(reinterpret_cast<const char*>(data), size)));
  gd::read_fatbin(host, "/lib/libgpu.so");
  return 0;
}
