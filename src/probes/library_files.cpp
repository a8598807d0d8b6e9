#include "probes/library_files.h"

#include "loader/search_path.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <vector>

namespace gd {

const std::vector<CudaLibraryKind>& cuda_library_kinds() {
  static const std::vector<CudaLibraryKind> kinds = {
      {"libcublas.so", "cuBLAS", "nvidia_cublas", "libcublas", true},
      {"libcublasLt.so", "cuBLASLt", "nvidia_cublas", "libcublas", true},
      {"libcudnn.so", "cuDNN", "nvidia_cudnn", "", false},
      {"libnccl.so", "NCCL", "nvidia_nccl", "", false},
      {"libnvJitLink.so", "nvJitLink", "nvidia_nvjitlink", "libnvjitlink", true},
      {"libcufft.so", "cuFFT", "nvidia_cufft", "libcufft", false},
      {"libcusparse.so", "cuSPARSE", "nvidia_cusparse", "libcusparse", false},
      {"libcurand.so", "cuRAND", "nvidia_curand", "libcurand", false},
      {"libcusolver.so", "cuSOLVER", "nvidia_cusolver", "libcusolver", false},
      {"libnvrtc.so", "NVRTC", "nvidia_cuda_nvrtc", "cuda_nvrtc", true},
  };
  return kinds;
}

const CudaLibraryKind* cuda_library_kind(std::string_view file_name) {
  for (const auto& kind : cuda_library_kinds()) {
    const std::string_view stem = kind.stem;
    if (file_name.starts_with(stem) && file_name.size() > stem.size() && file_name[stem.size()] == '.') return &kind;
  }
  return nullptr;
}

namespace {


// ".../nvidia_cuda_runtime_cu12-12.4.127.dist-info" -> "12.4.127"
std::optional<std::string> dist_info_version(const std::string& name, const std::string& prefix) {
  constexpr std::string_view suffix = ".dist-info";
  if (!name.starts_with(prefix) || !name.ends_with(suffix)) return std::nullopt;
  const std::string stem = name.substr(0, name.size() - suffix.size());
  const auto dash = stem.rfind('-');
  if (dash == std::string::npos || dash < prefix.size()) return std::nullopt;
  const std::string version = stem.substr(dash + 1);
  return Version::parse(version) ? std::optional(version) : std::nullopt;
}

std::optional<PackageVersion> from_dist_info(Host& host, const std::string& dir, const std::string& file,
                                             const std::string& prefix) {
  auto names = host.list_dir(dir);
  if (!names) return std::nullopt;
  for (const auto& name : *names) {
    const auto version = dist_info_version(name, prefix);
    if (!version) continue;
    const std::string record = dir + "/" + name + "/RECORD";
    auto text = host.read_file(record, 4 << 20);
    if (text && contains(*text, "/" + file + ",")) return PackageVersion{*version, dir + "/" + name, ""};
  }
  return std::nullopt;
}

std::optional<PackageVersion> from_version_json(Host& host, const std::string& dir, const std::string& key) {
  const std::string path = dir + "/version.json";
  auto text = host.read_file(path, 1 << 20);
  if (!text) return std::nullopt;
  boost::system::error_code error;
  const auto document = boost::json::parse(*text, error);
  if (error || !document.is_object()) return std::nullopt;
  const auto* entry = document.as_object().if_contains(key);
  if (!entry || !entry->is_object()) return std::nullopt;
  const auto* version = entry->as_object().if_contains("version");
  if (!version || !version->is_string() || !Version::parse(version->as_string())) return std::nullopt;
  return PackageVersion{std::string(version->as_string()), path, ""};
}

std::optional<PackageVersion> from_conda_meta(Host& host, CondaRecords& conda, const std::string& prefix, const std::string& library_path) {
  const auto owner = conda.owner_of(host, prefix, library_path);
  if (!owner) return std::nullopt;
  return PackageVersion{owner->version, owner->record, owner->package};
}

}  // namespace

std::optional<std::string> version_from_file_name(const std::string& path, const std::string& stem) {
  const std::string name(base_name(path));
  if (!name.starts_with(stem + ".")) return std::nullopt;
  const std::string rest = name.substr(stem.size() + 1);
  const auto version = Version::parse(rest);
  return version && version->size() >= 2 ? std::optional(rest) : std::nullopt;
}

std::optional<PackageVersion> package_version(Host& host, CondaRecords& conda, const std::string& library_path,
                                              const std::string& package_prefix, const std::string& version_json_key) {
  const std::string file(base_name(library_path));
  std::string dir = dir_name(library_path);
  // Wheels: site-packages/nvidia/cu13/lib -> site-packages (three up); a
  // toolkit built from wheels keeps them in <root>/dist-info.
  for (int up = 0; up < 4 && dir.size() > 1; ++up) {
    if (auto found = from_dist_info(host, dir, file, package_prefix)) return found;
    if (auto found = from_dist_info(host, dir + "/dist-info", file, package_prefix)) return found;
    if (!version_json_key.empty())
      if (auto found = from_version_json(host, dir, version_json_key)) return found;
    if (auto found = from_conda_meta(host, conda, dir, library_path)) return found;
    dir = dir_name(dir);
  }
  return std::nullopt;
}

// "/usr/local/cuda-12.1/lib64/libnvJitLink.so.12" -> "12.1": a toolkit's
// directory as NVIDIA's installers name it.
std::optional<std::string> toolkit_version_in_path(std::string_view path) {
  for (auto part : split(path, '/')) {
    if (!part.starts_with("cuda-")) continue;
    const auto version = Version::parse(part.substr(5));
    if (version && version->size() == 2) return std::string(part.substr(5));
  }
  return std::nullopt;
}

std::optional<std::string> cuda_library_version(Host& host, CondaRecords& conda, const CudaLibraryKind& kind, const std::string& real_path) {
  if (auto version = version_from_file_name(real_path, kind.stem)) return version;
  if (auto packaged = package_version(host, conda, real_path, kind.package, kind.version_json_key)) return packaged->version;
  if (kind.tracks_toolkit) return toolkit_version_in_path(real_path);
  return std::nullopt;
}

std::optional<std::string> driver_runpath_of_programs(Host& host) {
  if (host.exists("/etc/NIXOS")) return std::string("/run/opengl-driver/lib");
  return std::nullopt;
}

}  // namespace gd
