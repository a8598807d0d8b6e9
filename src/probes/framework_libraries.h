#pragma once
// Which CUDA libraries a framework really loads: its own library (torch's
// libtorch_cuda.so, a --target file) dlopen-ed by a plain program, as
// `import torch` does, and every DT_NEEDED below it resolved by the loader
// simulation — so the wheel's RUNPATH, LD_LIBRARY_PATH (searched before
// RUNPATH) and the cache decide, as they will at run time.

#include "facts/application_facts.h"
#include "host/host.h"

#include <string>
#include <vector>

namespace gd {

// cuDNN, cuBLAS, NCCL, nvJitLink...: the libraries whose absence or
// shadowing breaks a framework. The driver's own (libcuda.so.1,
// libnvidia-*) are the driver-libs layer's, and not listed here.
bool is_cuda_library(std::string_view name);

// Appends one entry per CUDA library the object at path loads, at most 256 in all.
void resolve_framework_libraries(Host& host, const std::string& framework, const std::string& path,
                                 std::vector<FrameworkLibrary>& out);

}  // namespace gd
