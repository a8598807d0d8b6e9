// libFuzzer target: any bytes as a kernel module, plain or compressed (the
// first byte picks .ko, .ko.xz, .ko.zst or .ko.gz), read as the kernel-module
// probe reads an installed nvidia.ko: unpacked, bounded, then its .modinfo.
#include "formats/modinfo.h"
#include "test_support/fake_host.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const k_names[] = {"/m/nvidia.ko", "/m/nvidia.ko.xz", "/m/nvidia.ko.zst", "/m/nvidia.ko.gz"};
  gd::FakeHost host;
  const std::string name = k_names[data[0] % 4];
  host.file(name, std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  (void)gd::read_modinfo(host, name);
  return 0;
}
