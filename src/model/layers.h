#pragma once
// The layers of the GPU stack, bottom up. These ids are a public contract:
// they appear in reports, rules and snapshots (docs/layers.md).

#include <array>
#include <string_view>

namespace gd {

inline constexpr std::array<std::string_view, 7> k_layer_ids = {
    "hardware", "kernel-module", "container", "device-nodes", "driver-libs", "cuda-runtime", "application",
};

inline bool is_layer_id(std::string_view id) {
  for (auto known : k_layer_ids)
    if (known == id) return true;
  return false;
}

}  // namespace gd
