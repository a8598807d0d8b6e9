#pragma once
// Layer 6, cuda-runtime: every CUDA runtime (libcudart) an application here
// could load — the one the loader finds by itself, CUDA toolkits under
// /usr/local, pip wheels in the active Python environments, conda
// environments — with its full version, how the loader reaches it, and the
// CUDA libraries beside it (cuBLAS, cuDNN, NCCL, nvJitLink, cuFFT, ...),
// including ones the loader would take from somewhere else.

#include "facts/cuda_runtime_facts.h"
#include "probes/probe_context.h"

namespace gd {

Probed<CudaRuntimeFacts> probe_cuda_runtime(ProbeContext& context);

}  // namespace gd
