#pragma once
// CuPy and JAX's CUDA plugin as frameworks: the CUDA libraries they really
// load, read from their own files, so the loader simulation judges them as
// it judges torch (missing, only in the wheels, shadowed, older than built).
//
// CuPy's extension modules link cuBLAS, cuFFT, cuRAND, cuSPARSE (and, before
// 14, the runtime) by DT_NEEDED and open NVRTC by name; CuPy 14 first loads
// each of them through cuda-pathfinder, which tries the NVIDIA wheels in
// site-packages (nvidia/cu13/lib, nvidia/<component>/lib) before the loader.
// JAX's plugin loads its libraries from the nvidia.* wheels by path
// (_load_nvidia_libraries), then XLA opens them by name from the plugin, and
// its version check fails on any of them missing (_check_cuda_versions).

#include "host/host.h"
#include "probes/python_frameworks.h"

#include <optional>
#include <string>

namespace gd {

std::optional<FoundFramework> find_cupy(Host& host, const std::string& site, const InstalledPackages& installed);

// The plugin JAX imports first (jax_cuda13_plugin before jax_cuda12_plugin).
std::optional<FoundFramework> find_jax_plugin(Host& host, const std::string& site, const InstalledPackages& installed);

}  // namespace gd
