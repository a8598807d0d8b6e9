#pragma once
// The GPU frameworks a Python site directory holds — PyTorch, TensorFlow,
// ONNX Runtime GPU, vLLM, CuPy, JAX's CUDA plugin — each read from the files it ships, never
// imported: where it writes its version and CUDA build, which library
// carries its GPU code, which library it loads CUDA through, what it
// dlopen-s by name at run time, and the library versions it was built with.

#include "facts/application_facts.h"
#include "host/host.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gd {

using InstalledPackages = std::vector<std::pair<std::string, std::string>>;  // dist-info (name, version)

struct FoundFramework {
  FrameworkFacts facts;
  std::string gpu_code;        // the library whose .nv_fatbin is read; empty when none is there
  std::string loads_through;   // the library whose DT_NEEDED the loader resolves; empty when none
  std::vector<std::string> modules;   // its other libraries, loaded as it is used (CuPy's extension modules)
  std::vector<std::string> dlopens;   // sonames it dlopen-s by name from that library (TensorFlow)
  std::vector<std::string> preloads;  // libraries already in the process when it loads (vLLM imports torch)
  std::vector<std::string> loads_first;  // its own copies it loads by path before its library (the wheels', CuPy 14, JAX)
  std::vector<std::string> build_archs;  // its build info's list (sm_80, compute_90), for when no fatbin is readable
  std::map<std::string, std::string> built_against;  // library label -> version it was built with: cuDNN -> 9.1.0.70
  std::vector<std::pair<std::string, std::string>> pins;  // its METADATA's exact pins (torch: nvidia_cudnn_cu12 -> 9.1.0.70)
};

std::vector<FoundFramework> find_python_frameworks(Host& host, const std::string& site, const InstalledPackages& installed);

// Packages with compiled code for exactly one torch release (torchvision,
// torchaudio, xformers, vllm) pin it in their METADATA; another torch
// beside them fails at import ("operator torchvision::nms does not exist",
// undefined symbols). One entry per pin found.
// (site, its dist-infos) in the order Python searches them: the first
// torch or jaxlib among them is the one every package imports.
using Environments = std::vector<std::pair<std::string, InstalledPackages>>;

std::vector<WheelPin> torch_pins(Host& host, const Environments& environments);

// JAX's own version checks, from the files they read: jax_cudaNN_plugin's
// version must equal jaxlib's (else the plugin is skipped and JAX runs on the
// CPU); jaxlib must be at least jax's _minimum_jaxlib_version and no newer than jax.
struct JaxChecks {
  std::vector<WheelPin> plugins, jaxlib_ranges;
};
JaxChecks jax_checks(Host& host, const Environments& environments);

// nvidia-cudnn-cu11 beside nvidia-cudnn-cu12 (and so on): the pairs whose
// RECORDs list the same library files, which the later install replaced.
std::vector<WheelOverlap> overlapping_wheels(Host& host, const std::string& site, const InstalledPackages& installed);

}  // namespace gd
