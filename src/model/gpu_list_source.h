#pragma once
// Which evidence lists the GPUs best, most detailed first: NVML (it answered
// with devices), nvidia-smi, CUDA (cuInit's devices), else the files (sysfs
// and /proc/driver/nvidia). The driver-libs probe decides it
// (driver-libs.gpu_list_source); the GPU table of every output follows it, so
// that `gpudoctor gpus`, the text report and JSON consumers agree.

#include "util/enum_names.h"

namespace gd {

enum class GpuListSource { nvml, nvidia_smi, cuda, files };
template <>
struct EnumTable<GpuListSource> {
  static constexpr std::array names{"nvml", "nvidia-smi", "cuda", "files"};
};

}  // namespace gd
