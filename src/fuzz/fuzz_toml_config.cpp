// libFuzzer target: any bytes as an engine's TOML configuration. What is
// not TOML is a problem string with its line; the key bound holds.
#include "formats/toml_config.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gd::TomlBounds bounds{.max_keys = 256, .max_nesting = 8};
  const auto result = gd::read_toml(std::string_view(reinterpret_cast<const char*>(data), size), bounds);
  if (result && result->size() > bounds.max_keys) __builtin_trap();  // the cap holds
  return 0;
}
