#pragma once
// Layer 7, application: the frameworks in the Python environments here (or
// the files given with --target), the CUDA they were built for, and whether
// the GPU code they carry (SASS per architecture, PTX to JIT) runs on each
// GPU with this driver — "no kernel image is available for execution on the
// device", predicted. Files only: Python is never run.

#include "facts/application_facts.h"
#include "probes/probe_context.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace gd {

Probed<ApplicationFacts> probe_application(ProbeContext& context);

// The kernel image a GPU of compute capability cc gets from this code:
// sass, ptx-jit, ptx-needs-newer-driver or none. driver_cuda: what the driver supports.
GpuCodeCheck check_gpu_code(const FrameworkFacts& framework, const std::set<int>& sass,
                            const std::map<int, std::string>& ptx, const std::string& gpu, int cc,
                            const std::optional<std::string>& driver_cuda, const CudaTables& tables);

}  // namespace gd
