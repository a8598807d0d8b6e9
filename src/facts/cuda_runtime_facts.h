#pragma once
// Layer 6, cuda-runtime: every libcudart found, the CUDA libraries beside
// it, and the driver each would talk to.

#include "model/fact_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// One library file: where it is, and which version it carries.
struct LibraryFileFacts {
  std::string path, real_path;
  std::optional<std::string> soname, problem, version, version_source;

  template <class F>
  void fields(F& f) const {
    f("path", path, "where it was found");
    f("real_path", real_path, "the file after every symlink");
    f("source", real_path, "the file after every symlink (for evidence)");
    f("soname", soname, "its DT_SONAME");
    f("problem", problem, "why its ELF header could not be read");
    f("version", version, "full version: from the real file name, else a wheel's dist-info, else a toolkit's version.json");
    f("version_source", version_source, "which of those said so");
  }
};

struct CudaLibraryFacts : LibraryFileFacts {
  std::string name, label, stem;

  template <class F>
  void fields(F& f) const {
    LibraryFileFacts::fields(f);
    f("name", name, "the SONAME-style file, libcudnn.so.9");
    f("label", label, "cuBLAS, cuDNN, NCCL, ...");
    f("stem", stem, "libcudnn.so");
  }
};

// How a runtime came to be where it is: by the directory it was found in.
enum class RuntimeInstall { toolkit, wheel, conda, system, framework_torch };
template <>
struct EnumTable<RuntimeInstall> {
  static constexpr std::array names{"toolkit", "wheel", "conda", "system", "framework (torch)"};
};

struct RuntimeFacts : LibraryFileFacts {
  std::string name, via;
  RuntimeInstall install = RuntimeInstall::system;
  bool loader_reaches = false;
  std::vector<CudaLibraryFacts> libraries;
  std::optional<std::int64_t> cuda_major;
  std::optional<std::string> cuda, mvc_min, min_cc, toolkit_driver, package;
  std::optional<std::string> driver_cuda, driver_version, driver_source;
  std::optional<std::int64_t> driver_cuda_major;

  template <class F>
  void fields(F& f) const {
    LibraryFileFacts::fields(f);
    f("name", name, "libcudart.so.12");
    f("install", install, "where it came from: a toolkit, a wheel, conda, the system's packages, or the framework that bundles it");
    f("package", package, "conda: the package that installed it (cudatoolkit 11.8.0, cuda-cudart 12.4.127), from its conda-meta record");
    f("via", via, "how the loader reaches it, or \"not on the loader's path\"");
    f("loader_reaches", loader_reaches, "a program without RPATH or RUNPATH loads this one");
    f("libraries", libraries, "CUDA libraries beside it (wheels: in sibling nvidia/*/lib)");
    f("cuda_major", cuda_major, "its CUDA major");
    f("cuda", cuda, "its CUDA major.minor");
    f("mvc_min", mvc_min, "the oldest driver minor-version compatibility allows for this major");
    f("min_cc", min_cc, "the lowest compute capability this major builds for");
    f("toolkit_driver", toolkit_driver, "the driver its toolkit shipped with");
    f("driver_cuda", driver_cuda, "what the driver it will talk to supports (a cuda-compat libcuda, else the module)");
    f("driver_version", driver_version, "that driver's version");
    f("driver_source", driver_source, "\"cuda-compat VERSION\" or \"driver VERSION\"");
    f("driver_cuda_major", driver_cuda_major, "driver_cuda's major");
  }
};

struct ShadowedLibrary {
  std::string name, beside_runtime, loader_takes, via;
  std::optional<std::string> beside_version, loader_version;

  template <class F>
  void fields(F& f) const {
    f("name", name, "the library");
    f("beside_runtime", beside_runtime, "the copy beside the runtime");
    f("loader_takes", loader_takes, "the copy the loader picks instead");
    f("via", via, "how the loader reached it");
    f("beside_version", beside_version, "version of the copy beside the runtime");
    f("loader_version", loader_version, "version of the copy picked");
  }
};

// A variable that changes how the driver runs every CUDA program started
// with this environment (the ones DCGM's diagnostic and gpud flag, and
// CUDA_LAUNCH_BLOCKING), where it is set.
enum class CudaDebugVariable {
  launch_blocking, device_waits_on_exception, enable_coredump_on_exception, coredump_file, injection64_path,
  injection32_path, nsight_cuda_debugger, auto_boost, cuda_profile, compute_profile, opencl_profile
};
template <>
struct EnumTable<CudaDebugVariable> {
  static constexpr std::array names{"CUDA_LAUNCH_BLOCKING", "CUDA_DEVICE_WAITS_ON_EXCEPTION", "CUDA_ENABLE_COREDUMP_ON_EXCEPTION",
                                    "CUDA_COREDUMP_FILE", "CUDA_INJECTION64_PATH", "CUDA_INJECTION32_PATH", "NSIGHT_CUDA_DEBUGGER",
                                    "CUDA_AUTO_BOOST", "CUDA_PROFILE", "COMPUTE_PROFILE", "OPENCL_PROFILE"};
};

struct DebugVariable {
  CudaDebugVariable name = CudaDebugVariable::launch_blocking;
  std::string value;
  bool enabled = false;

  template <class F>
  void fields(F& f) const {
    f("name", name, "the variable");
    f("value", value, "its value (escaped, at most 120 characters)");
    f("enabled", enabled, "it turns its behaviour on: a path that is not empty, or a value other than 0, false, no or off");
  }
};

struct CudaRuntimeFacts {
  std::int64_t runtime_count = 0;
  std::vector<ShadowedLibrary> shadowed;
  std::vector<RuntimeFacts> runtimes;
  std::vector<DebugVariable> debug_variables;

  template <class F>
  void fields(F& f) const {
    f("debug_variables", debug_variables,
      "CUDA's debugging and profiling variables set here (CUDA_LAUNCH_BLOCKING, CUDA_DEVICE_WAITS_ON_EXCEPTION, CUDA_INJECTION64_PATH, ...)");
    f("runtime_count", runtime_count, "runtimes found");
    f("shadowed", shadowed, "libraries the loader takes from elsewhere than beside a runtime it reaches");
    f("runtimes", runtimes, "every libcudart found: the loader's first, then toolkits, wheels, conda");
  }
};

}  // namespace gd
