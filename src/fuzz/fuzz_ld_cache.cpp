// libFuzzer target: any bytes as /etc/ld.so.cache, then a lookup and every entry decoded.
#include "loader/ld_cache.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = gd::parse_ld_cache(std::string(reinterpret_cast<const char*>(data), size));
  if (!parsed) return 0;
  parsed->lookup("libcuda.so.1", 0x0303, {0x0303}, {"x86-64-v3"});
  // Every entry, decoded from the file as a listing reads it (Triton's libcuda_dirs).
  for (std::size_t i = 0; i < parsed->size(); ++i) parsed->entry(i);
  return 0;
}
