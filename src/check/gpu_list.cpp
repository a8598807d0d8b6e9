#include "check/gpu_list.h"

#include "util/text.h"

namespace gd {

namespace {

// Every value came from the diagnosed system: escaped, and cut to a width.
std::string text(const std::optional<std::string>& value, std::size_t max = 60) { return value ? printable(*value, max) : std::string(); }
std::string text(const std::string& value, std::size_t max = 60) { return printable(value, max); }

template <class E>
std::string name_of(const std::optional<E>& value) {
  return value ? std::string(enum_name(*value)) : std::string();
}

std::vector<GpuRow> from_nvml(const std::vector<NvmlDeviceFacts>& devices, const std::string& driver) {
  std::vector<GpuRow> rows;
  for (const auto& device : devices) {
    GpuRow row{.index = device.index,
               .memory_used_mib = device.memory_used_mib,
               .memory_total_mib = device.memory_total_mib,
               .utilization_percent = device.utilization_percent,
               .temperature_c = device.temperature_c,
               .power_draw_w = device.power_draw_w,
               .power_limit_w = device.power_limit_w,
               .name = text(device.name),
               .bus_id = text(device.bus_id),
               .uuid = text(device.uuid),
               .compute_capability = text(device.compute_capability),
               .driver = driver,
               .mig = name_of(device.mig_mode),
               .source = std::string(enum_name(GpuListSource::nvml))};
    if (device.mig_devices && device.mig_mode == Setting::Enabled) row.mig += " (" + std::to_string(*device.mig_devices) + " devices)";
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<GpuRow> from_smi(const std::vector<SmiGpu>& gpus) {
  std::vector<GpuRow> rows;
  for (const auto& gpu : gpus) {
    GpuRow row;
    row.index = gpu.index;
    row.name = text(gpu.name);
    row.bus_id = text(gpu.bus_id);
    row.uuid = text(gpu.uuid);
    row.compute_capability = text(gpu.compute_capability);
    row.driver = text(gpu.driver_version);
    row.memory_used_mib = gpu.memory_used_mib;
    row.memory_total_mib = gpu.memory_total_mib;
    row.mig = name_of(gpu.mig_mode);
    row.source = enum_name(GpuListSource::nvidia_smi);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<GpuRow> from_cuda(const std::vector<CudaDeviceFacts>& devices, const std::string& driver) {
  std::vector<GpuRow> rows;
  for (const auto& device : devices) {
    GpuRow row;
    row.index = device.index;
    row.name = text(device.name);
    row.bus_id = text(device.bus_id);
    row.uuid = text(device.uuid);
    row.compute_capability = text(device.compute_capability);
    row.memory_total_mib = device.memory_total_mib;
    row.driver = driver;
    row.source = enum_name(GpuListSource::cuda);
    rows.push_back(std::move(row));
  }
  return rows;
}

// Every NVIDIA GPU on the PCI bus, with what /proc/driver/nvidia/gpus says
// about the ones the driver claimed.
std::vector<GpuRow> from_files(const HardwareFacts& hardware, const KernelModuleFacts& module, const std::string& driver) {
  std::vector<GpuRow> rows;
  for (const auto& gpu : hardware.gpus) {
    GpuRow row;
    row.name = text(gpu.name);
    row.bus_id = text(gpu.bdf);
    row.compute_capability = text(gpu.compute_capability);
    row.source = enum_name(GpuListSource::files);
    for (const auto& claimed : module.claimed_gpus) {
      if (text(claimed.bdf) != row.bus_id) continue;
      row.uuid = text(claimed.uuid);
      row.index = claimed.minor;
      row.driver = driver;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::vector<GpuRow> gpu_list(const HardwareFacts& hardware, const KernelModuleFacts& module, const DriverLibsFacts& libs) {
  std::string driver = text(module.version, 40);
  if (libs.nvml_probe && libs.nvml_probe->driver_version) driver = text(libs.nvml_probe->driver_version, 40);
  // Which source to trust is the driver-libs probe's decision, not the table's.
  switch (libs.gpu_list_source) {
    case GpuListSource::nvml: return libs.nvml_probe ? from_nvml(libs.nvml_probe->devices, driver) : std::vector<GpuRow>{};
    case GpuListSource::nvidia_smi: return libs.nvidia_smi_run ? from_smi(libs.nvidia_smi_run->gpus) : std::vector<GpuRow>{};
    case GpuListSource::cuda: return libs.cuda_probe ? from_cuda(libs.cuda_probe->devices, driver) : std::vector<GpuRow>{};
    case GpuListSource::files: break;
  }
  return from_files(hardware, module, driver);
}

}  // namespace gd
