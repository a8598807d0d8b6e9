#pragma once
// One row of the GPU table (`gpudoctor gpus`, prometheus' gpudoctor_gpu_info):
// a GPU as the best source that answered describes it. Every text is already
// printable (escaped and cut) when a row is made; `source` says which
// evidence the row came from.

#include <cstdint>
#include <optional>
#include <string>

namespace gd {

struct GpuRow {
  std::optional<std::int64_t> index{}, memory_used_mib{}, memory_total_mib{}, utilization_percent{}, temperature_c{};
  std::optional<double> power_draw_w{}, power_limit_w{};
  std::string name{}, bus_id{}, uuid{}, compute_capability{}, driver{}, mig{};
  std::string source{};  // nvml, nvidia-smi, cuda, files (model/gpu_list_source.h)
};

}  // namespace gd
