#pragma once
// Layer 7, application: the frameworks in the Python environments here (or
// the files given with --target), the CUDA they were built for, and whether
// the GPU code they carry (SASS per architecture, PTX to JIT) runs on each
// GPU with this driver — "no kernel image is available for execution on the
// device", predicted. Files only: Python is never run.

#include "facts/application_facts.h"
#include "probes/gpu_code.h"
#include "probes/probe_context.h"

namespace gd {

Probed<ApplicationFacts> probe_application(ProbeContext& context);

}  // namespace gd
