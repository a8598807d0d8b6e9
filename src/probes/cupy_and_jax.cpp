#include "probes/cupy_and_jax.h"

#include "formats/elf_file.h"
#include "probes/framework_libraries.h"
#include "probes/python_envs.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <array>
#include <set>

namespace gd {

namespace {

constexpr std::size_t k_max_modules = 256;

// Where CuPy keeps the extension modules that link CUDA (cupy_builder's _cuda_files and features).
constexpr std::array<std::string_view, 5> k_cupy_module_dirs = {"cupy/_core", "cupy/cuda", "cupy/random", "cupy_backends/cuda/api",
                                                                "cupy_backends/cuda/libs"};

bool at_least(const std::optional<std::string>& version, std::string_view minimum) {
  const auto have = version ? Version::parse(*version) : std::nullopt;
  const auto want = Version::parse(minimum);
  return have && want && !(*have < *want);
}

}  // namespace

std::optional<FoundFramework> find_cupy(Host& host, const std::string& site, const InstalledPackages& installed) {
  const auto is_cupy = [](std::string_view name) { return name == "cupy" || name.starts_with("cupy_cuda"); };
  const auto dist = find_distribution(installed, is_cupy);
  std::string core;
  std::vector<std::string> modules;
  std::set<std::string> needed;  // the CUDA libraries its modules link
  std::optional<int> core_major;  // the CUDA major of what cupy/_core/core links
  for (const auto dir : k_cupy_module_dirs) {
    auto names = host.list_dir(site + "/" + std::string(dir));
    if (!names) continue;
    std::sort(names->begin(), names->end());
    for (const auto& name : *names) {
      if (!name.ends_with(".so") || modules.size() >= k_max_modules) continue;
      const std::string path = site + "/" + std::string(dir) + "/" + name;
      if (dir == "cupy/_core" && name.starts_with("core.")) core = path;
      else modules.push_back(path);
      if (const auto elf = read_elf(host, path))
        for (const auto& library : elf->needed)
          if (is_cuda_library(library)) {
            needed.insert(library);
            if (path == core && !core_major) core_major = cuda_major_of_soname(library);
          }
    }
  }
  // `import cupy` loads cupy/_core/core first; without it this is no CuPy for CUDA (cupy-rocm links none).
  if (core.empty() || needed.empty()) return std::nullopt;
  FoundFramework found;
  auto& facts = found.facts;
  facts.name = "cupy";
  if (dist) facts.version = dist->second;
  facts.path = printable(site + "/cupy", 300);
  // Every CuPy wheel installs into the one cupy/ directory: two of them leave a mix of both.
  std::vector<std::string> cupys;
  for (const auto& [name, version] : installed)
    if (is_cupy(normalized_package_name(name)) && cupys.size() < 8) cupys.push_back(printable(name + " " + version, 120));
  if (cupys.size() > 1) facts.distributions = std::move(cupys);
  // The wheel's name says the CUDA major (cupy_cuda12x); a conda or source CuPy's modules say it by what they link.
  // Beside another CuPy, the name says nothing of which wheel's core is on disk: what core links does.
  int major = 0;
  if (facts.distributions && core_major) {
    major = *core_major;
    facts.cuda_source = "the libraries cupy/_core/core links (more than one CuPy wheel is installed)";
    const auto same_major = [&](std::string_view name) { return is_cupy(name) && package_cuda_major(name) == core_major; };
    if (const auto installed_for_core = find_distribution(installed, same_major)) facts.version = installed_for_core->second;
  } else if (const auto named = dist ? package_cuda_major(dist->first) : std::nullopt) {
    major = *named;
    facts.cuda_source = "its wheel's name (" + dist->first + ")";
  } else {
    for (const auto& name : needed)
      if (const auto linked = cuda_major_of_soname(name)) {
        major = *linked;
        facts.cuda_source = "the CUDA major of the libraries its modules link";
        break;
      }
  }
  if (major) facts.cuda = std::to_string(major);
  found.loads_through = core;
  found.modules = std::move(modules);
  // The runtime is linked before 14 and opened at import from 14 on; NVRTC compiles every kernel CuPy runs.
  if (major) {
    const std::string runtime = major == 11 ? std::string("libcudart.so.11.0") : "libcudart.so." + std::to_string(major);
    if (!needed.contains(runtime)) found.dlopens.push_back(runtime);
    found.dlopens.push_back(major == 11 ? std::string("libnvrtc.so.11.2") : "libnvrtc.so." + std::to_string(major));
  }
  // CuPy 14 loads each library through cuda-pathfinder before the module that links it: the wheels' copies win.
  if (at_least(facts.version, "14")) {
    std::set<std::string> wanted = needed;
    wanted.insert(found.dlopens.begin(), found.dlopens.end());
    for (const auto& name : wanted)
      if (auto copy = copy_in_wheels(host, site, name)) found.loads_first.push_back(std::move(*copy));
  }
  return found;
}

namespace {

struct JaxLibrary {
  std::string_view wheel;   // the nvidia.<wheel> package _load_nvidia_libraries loads it from
  std::string_view soname;
};

// jax_plugins/cuda/__init__.py: the libraries _check_cuda_versions needs to
// load (CUDA, cuDNN, cuFFT, cuPTI, cuBLAS, cuSPARSE; "Unable to load cuDNN.
// Is it installed?"), and the wheel _load_nvidia_libraries takes each from.
constexpr std::array<JaxLibrary, 6> k_jax_cuda12 = {{{"cuda_runtime", "libcudart.so.12"}, {"cudnn", "libcudnn.so.9"},
                                                     {"cufft", "libcufft.so.11"}, {"cuda_cupti", "libcupti.so.12"},
                                                     {"cublas", "libcublas.so.12"}, {"cusparse", "libcusparse.so.12"}}};
constexpr std::array<JaxLibrary, 6> k_jax_cuda13 = {{{"cu13", "libcudart.so.13"}, {"cudnn", "libcudnn.so.9"},
                                                     {"cu13", "libcufft.so.12"}, {"cu13", "libcupti.so.13"},
                                                     {"cu13", "libcublas.so.13"}, {"cu13", "libcusparse.so.12"}}};

// The plugin's own library: the PJRT plugin XLA runs in, else the extension that reads the versions.
std::string jax_plugin_library(Host& host, const std::string& site, int major) {
  const std::string plugin = site + "/jax_plugins/xla_cuda" + std::to_string(major) + "/xla_cuda_plugin.so";
  if (host.stat(plugin)) return plugin;
  const std::string dir = site + "/jax_cuda" + std::to_string(major) + "_plugin";
  if (auto names = host.list_dir(dir)) {
    std::sort(names->begin(), names->end());
    for (const auto& name : *names)
      if (name.starts_with("_versions") && name.ends_with(".so")) return dir + "/" + name;
  }
  return {};
}

}  // namespace

std::optional<FoundFramework> find_jax_plugin(Host& host, const std::string& site, const InstalledPackages& installed) {
  for (const int major : {13, 12}) {
    const std::string name = "jax_cuda" + std::to_string(major) + "_plugin";
    const auto dist = find_distribution(installed, [&](std::string_view normal) { return normal == name; });
    if (!dist) continue;
    const auto library = jax_plugin_library(host, site, major);
    if (library.empty()) continue;
    FoundFramework found;
    auto& facts = found.facts;
    facts.name = "jax";
    facts.version = dist->second;
    facts.cuda = std::to_string(major);
    facts.cuda_source = "its plugin's name (" + name + ")";
    facts.path = printable(dir_name(library), 300);
    found.loads_through = library;
    for (const auto& wanted : major == 13 ? k_jax_cuda13 : k_jax_cuda12) {
      // cuDNN 9 since jax 0.4.31 (before it, 8.9): an older plugin's cuDNN major is not known here.
      if (wanted.wheel == "cudnn" && !at_least(facts.version, "0.4.31")) continue;
      found.dlopens.emplace_back(wanted.soname);
      // From 0.6.2 the plugin loads the wheels' copies by path before XLA asks for them by name.
      const std::string copy = site + "/nvidia/" + std::string(wanted.wheel) + "/lib/" + std::string(wanted.soname);
      if (at_least(facts.version, "0.6.2") && host.stat(copy)) found.loads_first.push_back(copy);
    }
    return found;
  }
  return std::nullopt;
}

}  // namespace gd
