#include "probes/framework_libraries.h"

#include "host/host_paths.h"
#include "loader/load_simulation.h"
#include "loader/search_path.h"
#include "util/text.h"

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
  const DstValues values{dirname_of(requester.path), config.lib_token, config.platform};
  for (const auto& element : parse_path_list(*list, PathListKind::dynamic_section, values)) {
    if (element.dir.empty()) continue;
    const std::string candidate = element.dir + "/" + name;
    if (host.stat(candidate) && real_path(host, candidate) != real_path(host, found)) return candidate;
  }
  return std::nullopt;
}

}  // namespace

bool is_cuda_library(std::string_view name) {
  for (const auto prefix : k_cuda_library_prefixes)
    if (name.starts_with(prefix)) return true;
  return false;
}

void resolve_framework_libraries(Host& host, const std::string& framework, const std::string& path,
                                 std::vector<FrameworkLibrary>& out) {
  LoadSimulation simulation(host, detect_host_loader_config(host));
  simulation.load_plain_program();
  const std::size_t first = simulation.resolutions().size();
  simulation.dlopen(path, k_plain_program);
  const auto& resolutions = simulation.resolutions();
  std::set<std::string> listed;
  for (std::size_t i = first; i < resolutions.size() && out.size() < k_max_libraries; ++i) {
    const auto& resolution = resolutions[i];
    if (resolution.name == path || !is_cuda_library(resolution.name)) continue;  // not the framework's own library
    if (!listed.insert(resolution.name).second) continue;  // asked for again by another of its libraries
    FrameworkLibrary library;
    library.framework = framework;
    library.library = printable(resolution.name, 120);
    library.requested_by = printable(resolution.requested_by, 300);
    library.found = resolution.path.has_value() && !resolution.fatal;
    if (resolution.path) {
      library.path = printable(*resolution.path, 300);
      library.via = enum_name(resolution.via);
      library.via_detail = printable(resolution.via_detail, 300);
      if (resolution.via == LoadVia::ld_library_path)
        for (const auto& object : simulation.objects())
          if (object.path == resolution.requested_by) {
            if (auto copy = copy_in_own_path(host, object, resolution.name, *resolution.path, simulation.config()))
              library.shadowed_copy = printable(real_path(host, *copy), 300);
            break;
          }
    }
    out.push_back(std::move(library));
  }
}

}  // namespace gd
