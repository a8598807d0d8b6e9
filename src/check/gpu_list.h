#pragma once
// The GPU table of a check: NVML's devices where NVML answered with them,
// else nvidia-smi's, else libcuda's, else the files (sysfs and
// /proc/driver/nvidia/gpus), as driver-libs.gpu_list_source decides. Read
// from the probes' typed facts, before any of them becomes JSON.

#include "facts/driver_libs_facts.h"
#include "facts/hardware_facts.h"
#include "facts/kernel_module_facts.h"
#include "model/gpu_row.h"

#include <vector>

namespace gd {

std::vector<GpuRow> gpu_list(const HardwareFacts& hardware, const KernelModuleFacts& module, const DriverLibsFacts& libs);

}  // namespace gd
