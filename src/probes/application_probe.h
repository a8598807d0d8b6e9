#pragma once
// Layer 7, application: the frameworks in the Python environments here (or
// the files given with --target), the CUDA they were built for, and whether
// the GPU code they carry (SASS per architecture, PTX to JIT) runs on each
// GPU with this driver — "no kernel image is available for execution on the
// device", predicted. Files only: Python is never run.

#include "facts/application_facts.h"
#include "formats/fatbin.h"
#include "probes/probe_context.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace gd {

Probed<ApplicationFacts> probe_application(ProbeContext& context);

// The kernel image a GPU of compute capability cc gets from this code:
// sass, ptx-jit, ptx-needs-newer-driver or none. driver_cuda: what the driver supports.
// Portable SASS runs on its major at an equal or higher minor (family 'f'
// SASS likewise, within its family), 'a' SASS on its own capability only;
// PTX JIT-compiles for any later GPU (compute_NNf within the family,
// compute_NNa for its own capability only) when the driver knows its ISA.
GpuCodeCheck check_gpu_code(const FrameworkFacts& framework, const FatbinContents& code, const std::string& gpu, int cc,
                            const std::optional<std::string>& driver_cuda, const CudaTables& tables);

}  // namespace gd
