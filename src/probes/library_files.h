#pragma once
// Facts about one library file that the driver-libs and cuda-runtime layers
// share: where a path really leads, the version its real file name carries,
// and the version its packaging records (a wheel's dist-info, a toolkit's
// version.json) when the file name carries only the major.

#include "host/host.h"
#include "host/host_paths.h"
#include "probes/conda_meta.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// "libcuda.so.550.54.15" -> "550.54.15"; "libcudart.so.12.4.127" -> "12.4.127";
// nullopt when the name carries only a major ("libcudart.so.13").
std::optional<std::string> version_from_file_name(const std::string& path, const std::string& stem);

// The RUNPATH the system's programs carry to reach the driver: NixOS
// (marked by /etc/NIXOS) has no driver in the loader's default paths or
// cache; nixpkgs' addDriverRunpath gives every program /run/opengl-driver/lib.
std::optional<std::string> driver_runpath_of_programs(Host& host);

// A CUDA library a runtime, a toolkit or a framework brings along, and the
// wheel that ships it (nvidia_cudnn_cu12, nvidia_cudnn_cu13: the prefix).
struct CudaLibraryKind {
  const char* stem;              // libcublas.so
  const char* label;             // cuBLAS
  const char* package;           // wheel name prefix: nvidia_cublas
  const char* version_json_key;  // its entry in a toolkit's version.json ("" for cuDNN and NCCL, which have none)
  bool tracks_toolkit;           // its major.minor is the toolkit's (cuBLAS 12.4.5.8 in CUDA 12.4; not cuSPARSE 12.3 in 12.4)
};
const std::vector<CudaLibraryKind>& cuda_library_kinds();

// The kind of "libcudnn.so.9" or "libcudnn.so.9.1.0"; nullptr for libraries outside the list.
const CudaLibraryKind* cuda_library_kind(std::string_view file_name);

struct PackageVersion {
  std::string version;
  std::string source;   // the dist-info, version.json or conda-meta record that said so
  std::string package;  // a conda package's name (cudatoolkit, cuda-cudart); empty otherwise
};

// A CUDA library's version from every source there is: its real file name
// (the symlink's target), the packaging that holds it (package_version), and
// for libraries whose version is the toolkit's, a toolkit directory in its
// path (/usr/local/cuda-12.1/lib64: 12.1). nullopt when none says.
std::optional<std::string> cuda_library_version(Host& host, CondaRecords& conda, const CudaLibraryKind& kind, const std::string& real_path);

// Looks beside and above the library's directory for the wheel dist-info
// whose RECORD lists the file, a toolkit version.json, or the conda-meta
// record whose "files" list it (conda: the run's records, read once).
std::optional<PackageVersion> package_version(Host& host, CondaRecords& conda, const std::string& library_path,
                                              const std::string& package_prefix, const std::string& version_json_key);

}  // namespace gd
