// libFuzzer target: any bytes as a CDI spec (YAML or JSON). A bad spec is a
// problem string; nothing crashes, hangs or recurses without bound.
#include "formats/cdi_spec.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto result = gd::parse_cdi_spec(std::string_view(reinterpret_cast<const char*>(data), size));
  if (result && result->host_paths.size() > 4096) __builtin_trap();  // the cap holds
  return 0;
}
