#include "probes/framework_libraries.h"

#include "host/host_paths.h"
#include "loader/load_simulation.h"
#include "loader/search_path.h"
#include "probes/library_files.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <array>
#include <set>

namespace gd {

namespace {

constexpr std::size_t k_max_libraries = 256;

constexpr std::array<std::string_view, 18> k_cuda_library_prefixes = {
    "libcudart.so",   "libcublas.so", "libcublasLt.so", "libcudnn",     "libcufft.so",  "libcufftw.so",
    "libcurand.so",   "libcusolver",  "libcusparse",    "libnccl.so",   "libnvJitLink", "libnvrtc",
    "libcupti.so",    "libnvToolsExt", "libcufile",     "libnvshmem",   "libnvjpeg",    "libnpp"};

// The requester's own RUNPATH (or RPATH) directory holding another copy of name.
std::optional<std::string> copy_in_own_path(Host& host, const LoadedObject& requester, const std::string& name,
                                            const std::string& found, const LoaderConfig& config) {
  const auto& list = requester.elf.runpath ? requester.elf.runpath : requester.elf.rpath;
  if (!list) return std::nullopt;
  const DstValues values{dir_name(requester.path), config.lib_token, config.platform};
  for (const auto& element : parse_path_list(*list, PathListKind::dynamic_section, values)) {
    if (element.dir.empty()) continue;
    const std::string candidate = element.dir + "/" + name;
    if (host.stat(candidate) && real_path(host, candidate) != real_path(host, found)) return candidate;
  }
  return std::nullopt;
}

// a against b over the components both carry: "12.1" is older than
// "12.4.5.8", "12.4" the same as it (a toolkit directory says no more).
std::optional<VersionRelation> relation_of(const std::optional<std::string>& a, const std::optional<std::string>& b) {
  const auto left = a ? Version::parse(*a) : std::nullopt, right = b ? Version::parse(*b) : std::nullopt;
  if (!left || !right) return std::nullopt;
  for (std::size_t i = 0; i < left->size() && i < right->size(); ++i) {
    if (left->component(i) < right->component(i)) return VersionRelation::older;
    if (right->component(i) < left->component(i)) return VersionRelation::newer;
  }
  return VersionRelation::same;
}

// The version of the copy that wins, against the one the framework was built with.
void compare_with_build(Host& host, CondaRecords& conda, const CudaLibraryKind& kind, const std::string& real, const LibraryRequest& request,
                        FrameworkLibrary& library) {
  library.version = cuda_library_version(host, conda, kind, real);
  const auto built = request.built_against.find(kind.label);
  if (built == request.built_against.end()) return;
  library.built_against = built->second;
  // Only as many components as both say: TensorFlow's cuDNN "8" is any 8.x.
  library.relation = relation_of(library.version, library.built_against);
}

}  // namespace

std::optional<std::string> copy_in_wheels(Host& host, const std::string& site, const std::string& name) {
  auto packages = host.list_dir(site + "/nvidia");
  if (!packages) return std::nullopt;
  std::sort(packages->begin(), packages->end());  // the same answer whatever order the directory lists
  for (const auto& package : *packages) {
    const std::string candidate = site + "/nvidia/" + package + "/lib/" + name;
    if (host.stat(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<int> cuda_major_of_soname(std::string_view name) {
  for (const std::string_view stem : {"libcudart.so.", "libcublas.so."}) {
    if (!name.starts_with(stem)) continue;
    const auto rest = name.substr(stem.size());
    const auto digits = rest.substr(0, rest.find('.'));
    if (digits.empty() || digits.size() > 2 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    return std::stoi(std::string(digits));
  }
  return std::nullopt;
}

bool is_cuda_library(std::string_view name) {
  for (const auto prefix : k_cuda_library_prefixes)
    if (name.starts_with(prefix)) return true;
  return false;
}

void resolve_framework_libraries(Host& host, CondaRecords& conda, const LoaderConfig& config, const LibraryRequest& request, std::vector<FrameworkLibrary>& out) {
  LoadSimulation simulation(host, config);
  simulation.load_plain_program();
  for (const auto& preload : request.preloads) simulation.dlopen(preload, k_plain_program);
  const std::size_t first = simulation.resolutions().size();
  // What the copies it loads by path need is resolved by the loader as usual:
  // jax-ml/jax#30050, the wheel's cuSPARSE getting LD_LIBRARY_PATH's older nvJitLink.
  for (const auto& copy : request.loads_first) simulation.dlopen(copy, k_plain_program);
  simulation.dlopen(request.library, k_plain_program);
  for (const auto& name : request.dlopens) simulation.dlopen(name, request.library);
  for (const auto& module : request.modules) simulation.dlopen(module, k_plain_program);
  const auto& resolutions = simulation.resolutions();
  std::set<std::string> listed;
  for (std::size_t i = first; i < resolutions.size() && out.size() < k_max_libraries; ++i) {
    const auto& resolution = resolutions[i];
    if (resolution.name == request.library || !is_cuda_library(resolution.name)) continue;  // not the framework's own library
    if (!listed.insert(resolution.name).second) continue;  // asked for again by another of its libraries
    FrameworkLibrary library;
    library.framework = request.framework;
    library.library = printable(resolution.name, 120);
    library.requested_by = printable(resolution.requested_by, 300);
    library.found = resolution.path.has_value() && !resolution.fatal;
    library.install_hint = request.install_hint;
    const auto* kind = cuda_library_kind(resolution.name);
    if (kind) library.label = kind->label;
    if (resolution.path) {
      library.path = printable(*resolution.path, 300);
      library.via = enum_name(resolution.via);
      library.via_detail = printable(resolution.via_detail, 300);
      if (resolution.via == LoadVia::ld_library_path)
        for (const auto& object : simulation.objects())
          if (object.path == resolution.requested_by) {
            if (auto copy = copy_in_own_path(host, object, resolution.name, *resolution.path, simulation.config())) {
              const std::string real = real_path(host, *copy);
              library.shadowed_copy = printable(real, 300);
              if (kind)
                if (auto version = cuda_library_version(host, conda, *kind, real)) library.shadowed_version = printable(*version, 64);
              if (kind) library.shadowed_relation = relation_of(cuda_library_version(host, conda, *kind, real_path(host, *resolution.path)),
                                                                library.shadowed_version);
            }
            break;
          }
      if (kind) compare_with_build(host, conda, *kind, real_path(host, *resolution.path), request, library);
    } else if (!request.site.empty()) {
      if (auto copy = copy_in_wheels(host, request.site, resolution.name)) library.wheel_copy = printable(*copy, 300);
    }
    out.push_back(std::move(library));
  }
}

}  // namespace gd
