#pragma once
// The Python environments an application here would run in, read from
// files only (Python is never run or imported): the active venv and conda
// prefix, the system's and /usr/local's site- and dist-packages, and what
// their packages say about themselves (torch/version.py, *.dist-info names).

#include "facts/application_facts.h"
#include "host/host.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// site-packages and dist-packages directories, active environments first.
std::vector<std::string> python_site_dirs(Host& host);

// The conda environments a program here would use: CONDA_PREFIX, and the
// prefix of the python3 on PATH when it holds conda-meta/ (images set
// PATH=/opt/conda/bin:... and never activate). Their lib/ holds conda's
// CUDA libraries (cudatoolkit, cuda-cudart), reached through RPATHs.
std::vector<std::string> conda_prefixes(Host& host);

// torch/version.py: __version__ ("2.5.1+cu124") and cuda ("12.4"; absent in CPU builds).
struct TorchVersion {
  std::optional<std::string> version, cuda;
  bool cpu_only = false;  // cuda = None
};
std::optional<TorchVersion> read_torch_version(Host& host, const std::string& version_py);

// A generated build-info module's top-level `name = 'value'` strings
// (onnxruntime/capi/build_and_package_info.py: package_name, __version__,
// cuda_version). At most 64 names; values cut to 60 characters.
std::map<std::string, std::string> read_python_strings(Host& host, const std::string& file);

// tensorflow/python/platform/build_info.py: build_info = {...} or
// OrderedDict([('cuda_version', '12.3'), ...]), as TensorFlow generates it.
struct TensorflowBuildInfo {
  std::optional<std::string> cuda, cudnn;
  std::optional<bool> is_cuda_build;
  std::vector<std::string> compute_capabilities;  // "sm_80", "compute_90", as listed
};
std::optional<TensorflowBuildInfo> read_tensorflow_build_info(Host& host, const std::string& file);

// A distribution name as pip compares them and dist-info folders spell them:
// lower case, '-' and '.' as '_' ("nvidia-cudnn-cu12" -> "nvidia_cudnn_cu12").
std::string normalized_package_name(std::string_view name);

// The first installed distribution whose normalised name passes wanted: that name and its version.
std::optional<std::pair<std::string, std::string>> find_distribution(const std::vector<std::pair<std::string, std::string>>& installed,
                                                                     const std::function<bool(std::string_view)>& wanted);

// The CUDA major a GPU package is built for, as its name says:
// cupy_cuda12x, cupy-cuda117, jax_cuda12_plugin, jax_cuda13_pjrt, nvidia_cublas_cu12.
std::optional<int> package_cuda_major(std::string_view name);

// A distribution's exact pins from its METADATA ("Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; ..."):
// (name normalised as dist-info folders spell it, nvidia_cudnn_cu12; version). At most 256.
std::vector<std::pair<std::string, std::string>> pinned_requirements(Host& host, const std::string& metadata);

// An installed version against a pinned one: older, same or newer; where
// either is no plain dotted version, same when the texts are equal, else unknown.
VersionRelation pin_relation(std::string_view installed, std::string_view pinned);

// "name-1.2.3.dist-info" directories of a site dir: (name, version), names as written.
std::vector<std::pair<std::string, std::string>> installed_packages(Host& host, const std::string& site);

// A version without its local label (PEP 440): "2.5.1+cu124" -> "2.5.1", what
// an index serves and a pin names.
std::string public_version(std::string_view version);

}  // namespace gd
