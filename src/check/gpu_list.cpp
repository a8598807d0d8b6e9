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

// One row per GPU a source lists: what each says of which GPU it is
// (NVML's devices, nvidia-smi's and CUDA's name these fields alike), then
// what `describe` adds of that source.
template <class Item, class Describe>
std::vector<GpuRow> rows_of(const std::vector<Item>& items, GpuListSource source, Describe describe) {
  std::vector<GpuRow> rows;
  for (const auto& item : items) {
    GpuRow row;
    row.index = item.index;
    row.name = text(item.name);
    row.bus_id = text(item.bus_id);
    row.uuid = text(item.uuid);
    row.compute_capability = text(item.compute_capability);
    row.source = enum_name(source);
    describe(item, row);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<GpuRow> from_nvml(const std::vector<NvmlDeviceFacts>& devices, const std::string& driver) {
  return rows_of(devices, GpuListSource::nvml, [&driver](const NvmlDeviceFacts& device, GpuRow& row) {
    row.memory_used_mib = device.memory_used_mib;
    row.memory_total_mib = device.memory_total_mib;
    row.utilization_percent = device.utilization_percent;
    row.temperature_c = device.temperature_c;
    row.power_draw_w = device.power_draw_w;
    row.power_limit_w = device.power_limit_w;
    row.driver = driver;
    row.mig = name_of(device.mig_mode);
    if (device.mig_devices && device.mig_mode == Setting::Enabled) row.mig += " (" + std::to_string(*device.mig_devices) + " devices)";
  });
}

std::vector<GpuRow> from_smi(const std::vector<SmiGpu>& gpus) {
  return rows_of(gpus, GpuListSource::nvidia_smi, [](const SmiGpu& gpu, GpuRow& row) {
    row.driver = text(gpu.driver_version);
    row.memory_used_mib = gpu.memory_used_mib;
    row.memory_total_mib = gpu.memory_total_mib;
    row.mig = name_of(gpu.mig_mode);
  });
}

std::vector<GpuRow> from_cuda(const std::vector<CudaDeviceFacts>& devices, const std::string& driver) {
  return rows_of(devices, GpuListSource::cuda, [&driver](const CudaDeviceFacts& device, GpuRow& row) {
    row.memory_total_mib = device.memory_total_mib;
    row.driver = driver;
  });
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
      if (claimed.bdf != gpu.bdf) continue;  // raw addresses: no escaping per pair, which every check would pay
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
