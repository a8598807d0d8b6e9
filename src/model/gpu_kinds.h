#pragma once
// What kind of GPU a device id is, as rules/tables/pci-chips.json and
// tegra-socs.json name it: the tables are checked against these names when
// they load, and the hardware facts carry them.

#include "util/enum_names.h"

namespace gd {

// NVML's brand, lower case: what the container toolkit matches brand= against.
enum class GpuBrand { geforce, titan, quadro, nvidiartx, nvs, grid, tesla, unknown };
template <>
struct EnumTable<GpuBrand> {
  static constexpr std::array names{"geforce", "titan", "quadro", "nvidiartx", "nvs", "grid", "tesla", "unknown"};
};
// GeForce and TITAN: no forward compatibility (cuda-compat) for them.
inline bool is_consumer_brand(GpuBrand brand) { return brand == GpuBrand::geforce || brand == GpuBrand::titan; }

enum class ProductClass { consumer, workstation, datacenter, embedded, unknown };
template <>
struct EnumTable<ProductClass> {
  static constexpr std::array names{"consumer", "workstation", "datacenter", "embedded", "unknown"};
};

enum class GpuArchitecture { Kepler, Maxwell, Pascal, Volta, Turing, Ampere, Ada, Hopper, Blackwell };
template <>
struct EnumTable<GpuArchitecture> {
  static constexpr std::array names{"Kepler", "Maxwell", "Pascal", "Volta", "Turing", "Ampere", "Ada", "Hopper", "Blackwell"};
};

}  // namespace gd
