#pragma once
// `gpudoctor gpus`: the GPU list a person reaches for, from the best source
// that answered — NVML in the driver probe, else nvidia-smi, else libcuda's
// devices, else the files (sysfs and /proc/driver/nvidia/gpus). Each row
// says where it came from. Built from a report, so it works on --replay too.

#include "model/report.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

struct GpuRow {
  std::optional<std::int64_t> index{}, memory_used_mib{}, memory_total_mib{}, utilization_percent{}, temperature_c{};
  std::optional<double> power_draw_w{}, power_limit_w{};
  std::string name{}, bus_id{}, uuid{}, compute_capability{}, driver{}, mig{};
  std::string source{};  // nvml, nvidia-smi, cuda, files
};

std::vector<GpuRow> gpu_rows(const Report& report);

// At: when the rows were read (ISO 8601, UTC), for `gpus --watch`; empty for
// one table. JSON is then one line per reading, CSV a time column and the
// header only when asked for, so that a log of readings stays one CSV file.
struct GpuReading {
  std::string at;
  bool header = true;
};

std::string render_gpus_text(const std::vector<GpuRow>& rows);
std::string render_gpus_json(const std::vector<GpuRow>& rows, const GpuReading& reading = {});
std::string render_gpus_csv(const std::vector<GpuRow>& rows, const GpuReading& reading = {});

}  // namespace gd
