#pragma once
// Layer 5, driver-libs: which libcuda.so.1, libnvidia-ml.so.1,
// libnvidia-ptxjitcompiler.so.1 and libnvidia-nvvm.so.4 a process here would
// get from dlopen (as libcudart and NVML users load them), how the loader
// found each and what it tried, their versions, and what each one is: the
// host driver, a cuda-compat library, a toolkit stub or WSL's copy. Also
// nvidia-smi on PATH, and driver libraries lying where the loader never looks.

#include "probes/probe_context.h"

namespace gd {

// The files, and the children the driver will be asked (context.driver_answers), started ahead.
Probed<DriverLibsFacts> probe_driver_libs(ProbeContext& context);

// The driver's answers and what follows from them, once every layer above
// was read (the children ran beside that reading).
void finish_driver_libs(ProbeContext& context, Probed<DriverLibsFacts>& layer);

// The most detailed evidence that listed GPUs: NVML, nvidia-smi, CUDA, else the files.
GpuListSource gpu_list_source(const DriverLibsFacts& facts);

}  // namespace gd
