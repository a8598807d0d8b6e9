// libFuzzer target: any bytes as an ELF file, read as the loader reads it,
// with its sections and section notes, and as a Go program's build information.
#include "formats/elf_file.h"
#include "formats/go_buildinfo.h"
#include "test_support/fake_host.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gd::FakeHost host;
  host.file("/lib/libfuzz.so", std::string(reinterpret_cast<const char*>(data), size));
  (void)gd::read_elf(host, "/lib/libfuzz.so");
  gd::read_section_notes(host, "/lib/libfuzz.so", ".note.cuda.fwd_compatibility");
  (void)gd::read_go_buildinfo(host, "/lib/libfuzz.so");
  // The section's bytes alone: the header, the lengths and the module lines are the input.
  (void)gd::parse_go_buildinfo(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
