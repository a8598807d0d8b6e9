#include "probes/cuda_runtime_probe.h"

#include "formats/elf_file.h"
#include "loader/load_simulation.h"
#include "loader/search_path.h"
#include "probes/library_files.h"
#include "probes/python_envs.h"
#include "tables/cuda_tables.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <cctype>
#include <set>

namespace gd {

namespace {

constexpr const char* k_runtime_sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};

// Directories that may hold a runtime, with what kind of install they are.
std::vector<std::pair<std::string, RuntimeInstall>> candidate_dirs(Host& host) {
  std::vector<std::pair<std::string, RuntimeInstall>> dirs;
  if (auto entries = host.list_dir("/usr/local"))
    for (const auto& entry : *entries)
      if (entry.starts_with("cuda"))
        for (const char* sub : {"/lib64", "/lib", "/targets/x86_64-linux/lib", "/targets/sbsa-linux/lib"})
          dirs.emplace_back("/usr/local/" + entry + sub, RuntimeInstall::toolkit);
  // conda-forge's cuda-cudart keeps the files under targets/<arch>/lib and links them from lib/.
  for (const auto& prefix : conda_prefixes(host))
    for (const char* sub : {"/lib", "/targets/x86_64-linux/lib", "/targets/sbsa-linux/lib"}) dirs.emplace_back(prefix + sub, RuntimeInstall::conda);
  const auto site_dirs = python_site_dirs(host);
  for (const auto& site : site_dirs) {
    // Frameworks that bundle their own runtime under a hashed name
    // (torch/lib/libcudart-<hash>.so.<major> in wheels before CUDA 12).
    if (host.list_dir(site + "/torch/lib")) dirs.emplace_back(site + "/torch/lib", RuntimeInstall::framework_torch);
    auto packages = host.list_dir(site + "/nvidia");
    if (!packages) continue;
    for (const auto& package : *packages) dirs.emplace_back(site + "/nvidia/" + package + "/lib", RuntimeInstall::wheel);
  }
  return dirs;
}

// A framework's bundled runtime: "libcudart-d0da41ae.so.11.0" (auditwheel
// renames bundled libraries with a hash).
std::optional<std::string> hashed_runtime_file(const std::vector<std::string>& names) {
  for (const auto& name : names)
    if (name.starts_with("libcudart-") && name.find(".so.") != std::string::npos) return name;
  return std::nullopt;
}

// The SONAME-style file of a library in a directory: libcudnn.so.9 rather
// than libcudnn.so or libcudnn.so.9.1.0.
std::optional<std::string> soname_file(const std::vector<std::string>& names, const std::string& stem) {
  std::optional<std::string> best;
  for (const auto& name : names) {
    if (!name.starts_with(stem + ".")) continue;
    const auto version = Version::parse(name.substr(stem.size() + 1));
    if (!version) continue;
    if (!best || version->size() < Version::parse(best->substr(stem.size() + 1))->size()) best = name;
  }
  return best;
}

template <class Facts>
Facts describe_library(Host& host, CondaRecords& conda, const std::string& path, const std::string& stem, const std::string& package,
                       const std::string& json_key) {
  Facts item;
  item.path = path;
  item.real_path = real_path(host, path);
  // Read the header: it must really be a library, and a snapshot keeps it.
  const auto elf = read_elf(host, item.real_path);
  if (elf && elf->soname) item.soname = *elf->soname;
  if (!elf) item.problem = elf.error();
  if (auto version = version_from_file_name(item.real_path, stem)) {
    item.version = *version;
    item.version_source = "file name";
  } else if (auto packaged = package_version(host, conda, item.real_path, package, json_key)) {
    item.version = packaged->version;
    item.version_source = packaged->source;
  }
  return item;
}

class RuntimeSurvey {
 public:
  explicit RuntimeSurvey(ProbeContext& context)
      : m_host(context.host), m_conda(context.conda_records), m_simulation(context.host, host_loader_config(context)) {
    m_simulation.load_plain_program(context.driver_libs.program_runpath);  // what the driver-libs probe found
  }

  void add_loader_runtimes() {
    for (const char* soname : k_runtime_sonames) {
      const auto resolution = m_simulation.dlopen(soname, k_plain_program);
      if (!resolution.path) continue;
      m_loader_hits[real_path(m_host, *resolution.path)] = enum_name(resolution.via) + std::string(resolution.via_detail.empty() ? "" : " (" + resolution.via_detail + ")");
      add_dir(dir_name(*resolution.path), std::nullopt);
    }
  }

  // origin: what kind of install the directory is; none for one the loader found, judged by its path.
  void add_dir(const std::string& dir, std::optional<RuntimeInstall> origin) {
    auto names = m_host.list_dir(dir);
    if (!names) return;
    auto file = soname_file(*names, "libcudart.so");
    if (!file) file = hashed_runtime_file(*names);
    if (!file) return;
    const std::string path = dir + "/" + *file;
    const std::string real = real_path(m_host, path);
    if (!m_seen.insert(real).second) return;
    auto runtime = describe_library<RuntimeFacts>(m_host, m_conda, path, "libcudart.so", "nvidia_cuda_runtime", "cuda_cudart");
    runtime.name = *file;
    runtime.install = origin ? *origin : guess_install(dir);  // value_or would stat conda-meta for every directory
    if (!runtime.version && runtime.install == RuntimeInstall::framework_torch) {
      // A bundled runtime's name carries only its major; torch records the
      // CUDA it was built with in torch/version.py (cuda = '11.8').
      if (auto torch = read_torch_version(m_host, dir_name(dir) + "/version.py"); torch && torch->cuda) {
        const auto cuda = torch->cuda;
        runtime.version = *cuda;
        runtime.version_source = dir_name(dir) + "/version.py";
      }
    }
    if (runtime.install == RuntimeInstall::conda)
      if (auto packaged = package_version(m_host, m_conda, runtime.real_path, "nvidia_cuda_runtime", ""); packaged && !packaged->package.empty())
        runtime.package = packaged->package + " " + packaged->version;
    const auto hit = m_loader_hits.find(real);
    runtime.via = hit == m_loader_hits.end() ? "not on the loader's path" : hit->second;
    runtime.loader_reaches = hit != m_loader_hits.end();
    runtime.libraries = libraries_beside(dir, *names, runtime.install == RuntimeInstall::wheel);
    m_runtimes.push_back(std::move(runtime));
  }

  std::vector<RuntimeFacts> take_runtimes() { return std::move(m_runtimes); }

  // A library the loader takes from elsewhere than beside the runtime
  // (LD_LIBRARY_PATH ahead of a wheel's RUNPATH).
  std::vector<ShadowedLibrary> shadowed(const std::vector<RuntimeFacts>& runtimes) {
    std::vector<ShadowedLibrary> found;
    for (const auto& runtime : runtimes) {
      if (!runtime.loader_reaches) continue;
      for (const auto& library : runtime.libraries) {
        const auto resolution = m_simulation.dlopen(library.name, k_plain_program);
        if (!resolution.path) continue;
        const std::string real = real_path(m_host, *resolution.path);
        if (real == library.real_path) continue;
        ShadowedLibrary entry{library.name, library.real_path, real, enum_name(resolution.via), library.version,
                              version_from_file_name(real, library.stem)};
        found.push_back(std::move(entry));
      }
    }
    return found;
  }

 private:
  RuntimeInstall guess_install(const std::string& dir) const {
    if (contains(dir, "/site-packages/") || contains(dir, "/dist-packages/")) return RuntimeInstall::wheel;
    if (dir.starts_with("/usr/local/cuda")) return RuntimeInstall::toolkit;
    // A conda prefix (any name: miniforge3, envs/x) holds conda-meta/ above lib/ or targets/<arch>/lib.
    if (m_host.exists(dir_name(dir) + "/conda-meta") || m_host.exists(dir_name(dir_name(dir_name(dir))) + "/conda-meta"))
      return RuntimeInstall::conda;
    return RuntimeInstall::system;
  }

  std::vector<CudaLibraryFacts> libraries_beside(const std::string& dir, const std::vector<std::string>& names, bool wheel) {
    std::vector<CudaLibraryFacts> found;
    std::vector<std::pair<std::string, std::vector<std::string>>> places{{dir, names}};
    if (wheel)  // wheels keep cuDNN, NCCL and friends in sibling nvidia/<package>/lib directories
      if (auto packages = m_host.list_dir(dir_name(dir_name(dir))))
        for (const auto& package : *packages) {
          const std::string sibling = dir_name(dir_name(dir)) + "/" + package + "/lib";
          if (sibling == dir) continue;
          if (auto entries = m_host.list_dir(sibling)) places.emplace_back(sibling, *entries);
        }
    for (const auto& library : cuda_library_kinds()) {
      for (const auto& [place, entries] : places) {
        const auto file = soname_file(entries, library.stem);
        if (!file) continue;
        auto item = describe_library<CudaLibraryFacts>(m_host, m_conda, place + "/" + *file, library.stem, library.package, library.version_json_key);
        item.name = *file;
        item.label = library.label;
        item.stem = library.stem;
        found.push_back(std::move(item));
        break;
      }
    }
    return found;
  }

  Host& m_host;
  CondaRecords& m_conda;
  LoadSimulation m_simulation;
  std::map<std::string, std::string> m_loader_hits;  // real path -> how the loader found it
  std::set<std::string> m_seen;
  std::vector<RuntimeFacts> m_runtimes;
};

std::string summary_of(const std::vector<RuntimeFacts>& runtimes) {
  if (runtimes.empty()) return "no CUDA runtime (libcudart) found";
  const auto& first = runtimes.front();
  std::string text = first.name;
  if (first.version) text += " " + *first.version;
  const std::string install = enum_name(first.install);
  text += " (" + (first.package ? install + " " + *first.package : install) + ", " + dir_name(first.path) + ")";
  for (const auto& library : first.libraries) {
    if (library.label != "cuDNN") continue;
    text += ", cuDNN";
    if (library.version) text += " " + *library.version;
  }
  if (runtimes.size() > 1) text += ", and " + std::to_string(runtimes.size() - 1) + " more";
  return text;
}

// The driver a runtime here will talk to: a cuda-compat libcuda when the
// loader picks one, else the kernel module's driver.
void add_driver_levels(ProbeContext& context, RuntimeFacts& runtime) {
  const CudaTables& tables = context.tables.cuda;
  const auto parsed = runtime.version ? Version::parse(*runtime.version) : std::nullopt;
  // The major from the name: libcudart.so.12, or a bundled libcudart-<hash>.so.11.0.
  const auto so = runtime.name.find(".so.");
  const auto soname_major = so == std::string::npos ? std::nullopt : Version::parse(runtime.name.substr(so + 4));
  const int major = parsed ? static_cast<int>(parsed->major()) : soname_major ? static_cast<int>(soname_major->major()) : 0;
  if (major == 0) return;
  runtime.cuda_major = major;
  if (parsed) runtime.cuda = std::to_string(parsed->major()) + "." + std::to_string(parsed->minor());
  if (auto mvc = tables.mvc_minimum(major)) runtime.mvc_min = mvc->text();
  if (auto cc = tables.min_compute_capability(major)) runtime.min_cc = cc->text();
  if (runtime.cuda)
    if (auto driver = tables.toolkit_driver(*Version::parse(*runtime.cuda))) runtime.toolkit_driver = driver->text();
  const auto& kernel = context.kernel_module;
  const DriverLibraryFacts* libcuda = context.driver_libs.libraries.empty() ? nullptr : &context.driver_libs.libraries.front();
  if (libcuda && libcuda->kind == LibraryKind::compat && libcuda->cuda && libcuda->version) {
    runtime.driver_cuda = libcuda->cuda;
    runtime.driver_version = libcuda->version;
    runtime.driver_source = "cuda-compat " + *libcuda->version;
  } else if (kernel.driver_cuda && kernel.version) {
    runtime.driver_cuda = kernel.driver_cuda;
    runtime.driver_version = kernel.version;
    runtime.driver_source = "driver " + *kernel.version;
  }
  if (runtime.driver_cuda)
    if (const auto cuda = Version::parse(*runtime.driver_cuda)) runtime.driver_cuda_major = cuda->major();
}

// Each debugging or profiling variable that is set, and whether its value turns it on.
std::vector<DebugVariable> read_debug_variables(Host& host) {
  std::vector<DebugVariable> set;
  for (std::size_t i = 0; i < EnumTable<CudaDebugVariable>::names.size(); ++i) {
    const auto name = static_cast<CudaDebugVariable>(i);
    const auto value = host.env(EnumTable<CudaDebugVariable>::names[i]);
    if (!value) continue;
    const bool path = name == CudaDebugVariable::injection64_path || name == CudaDebugVariable::injection32_path ||
                      name == CudaDebugVariable::coredump_file;
    std::string lower = *value;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool off = lower.empty() || (!path && (lower == "0" || lower == "false" || lower == "no" || lower == "off"));
    set.push_back({.name = name, .value = printable(*value, 120), .enabled = !off});
  }
  return set;
}

}  // namespace

Probed<CudaRuntimeFacts> probe_cuda_runtime(ProbeContext& context) {
  Probed<CudaRuntimeFacts> layer;
  auto& facts = layer.facts;
  RuntimeSurvey survey(context);
  survey.add_loader_runtimes();
  for (const auto& [dir, origin] : candidate_dirs(context.host)) survey.add_dir(dir, origin);
  facts.runtimes = survey.take_runtimes();
  for (auto& runtime : facts.runtimes) add_driver_levels(context, runtime);
  facts.runtime_count = static_cast<std::int64_t>(facts.runtimes.size());
  facts.shadowed = survey.shadowed(facts.runtimes);
  facts.debug_variables = read_debug_variables(context.host);
  layer.source(&CudaRuntimeFacts::debug_variables, "env CUDA_LAUNCH_BLOCKING, CUDA_DEVICE_WAITS_ON_EXCEPTION, CUDA_INJECTION64_PATH, ...");
  layer.source(&CudaRuntimeFacts::shadowed, "dlopen search from a plain program");
  layer.source(&CudaRuntimeFacts::runtimes, "loader search, /usr/local/cuda*, Python site-packages, CONDA_PREFIX");
  layer.summary = summary_of(facts.runtimes);
  if (!facts.runtimes.empty()) layer.status = Status::ok;
  return layer;
}

}  // namespace gd
