#pragma once
// Which CUDA libraries a framework really loads: its own library (torch's
// libtorch_cuda.so, a --target file) dlopen-ed by a plain program, as
// `import torch` does, and every DT_NEEDED below it resolved by the loader
// simulation — so the wheel's RUNPATH, LD_LIBRARY_PATH (searched before
// RUNPATH) and the cache decide, as they will at run time.

#include "facts/application_facts.h"
#include "host/host.h"
#include "loader/loader_config.h"
#include "probes/conda_meta.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// cuDNN, cuBLAS, NCCL, nvJitLink...: the libraries whose absence or
// shadowing breaks a framework. The driver's own (libcuda.so.1,
// libnvidia-*) are the driver-libs layer's, and not listed here.
bool is_cuda_library(std::string_view name);

// The CUDA major a library's name says: libcudart.so.12 or libcublas.so.11.0 -> 12, 11; other names none.
std::optional<int> cuda_major_of_soname(std::string_view name);

// A copy of name in the environment's NVIDIA wheels (site/nvidia/*/lib/name), as a path to read.
std::optional<std::string> copy_in_wheels(Host& host, const std::string& site, const std::string& name);

// What one framework loads, and what it was built with.
struct LibraryRequest {
  std::string framework;     // "torch 2.5.1+cu124", or a --target file's name
  std::string library;       // its own library, dlopen-ed as `import` does
  std::vector<std::string> dlopens;   // sonames that library dlopen-s by name at run time (TensorFlow)
  std::vector<std::string> preloads;  // libraries already loaded before it (vLLM: torch's)
  std::map<std::string, std::string> built_against;  // label -> version: cuDNN -> 9.1.0.70
  std::string site;          // its site directory, whose nvidia/*/lib wheels may hold what the loader misses
  std::string install_hint;  // how its CUDA libraries are installed
  std::vector<std::string> modules;  // its other libraries, loaded after it (CuPy's extension modules)
  std::vector<std::string> loads_first;  // copies it loads by path before its library; what they need is its too
};

// Appends one entry per CUDA library the request's library loads, at most 256 in all.
void resolve_framework_libraries(Host& host, CondaRecords& conda, const LoaderConfig& config, const LibraryRequest& request, std::vector<FrameworkLibrary>& out);

}  // namespace gd
