// libFuzzer target: the container toolkit's variables (NVIDIA_VISIBLE_DEVICES,
// NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_*) and loader path lists.
#include "loader/search_path.h"
#include "probes/nvidia_env.h"
#include "probes/nvidia_require.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gd::parse_visible_devices(text);
  gd::parse_driver_capabilities(text);
  gd::evaluate_requirements({{"NVIDIA_REQUIRE_CUDA", text}}, text, std::nullopt,
                            {std::string("550.54.15"), std::string("12.4"), {{"9.0", gd::GpuBrand::tesla}}});
  gd::parse_path_list(text, gd::PathListKind::ld_library_path, {std::string("/o"), "lib", "x86_64"});
  gd::parse_path_list(text, gd::PathListKind::dynamic_section, {std::nullopt, "lib", "x86_64"});
  return 0;
}
