#include "probes/cuda_runtime_probe.h"

#include "elf/elf_file.h"
#include "elf/load_simulation.h"
#include "elf/search_path.h"
#include "probes/library_files.h"
#include "rules/cuda_tables.h"
#include "util/text.h"
#include "util/version.h"

#include <set>

namespace gd {
namespace json = boost::json;

namespace {

constexpr const char* k_runtime_sonames[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"};

struct CudaLibrary {
  const char* stem;     // libcublas.so
  const char* label;    // cuBLAS
  const char* package;  // wheel name prefix
};

constexpr CudaLibrary k_cuda_libraries[] = {
    {"libcublas.so", "cuBLAS", "nvidia_cublas"},     {"libcublasLt.so", "cuBLASLt", "nvidia_cublas"},
    {"libcudnn.so", "cuDNN", "nvidia_cudnn"},        {"libnccl.so", "NCCL", "nvidia_nccl"},
    {"libnvJitLink.so", "nvJitLink", "nvidia_nvjitlink"}, {"libcufft.so", "cuFFT", "nvidia_cufft"},
    {"libcusparse.so", "cuSPARSE", "nvidia_cusparse"}, {"libcurand.so", "cuRAND", "nvidia_curand"},
    {"libcusolver.so", "cuSOLVER", "nvidia_cusolver"}, {"libnvrtc.so", "NVRTC", "nvidia_cuda_nvrtc"},
};

// Directories that may hold a runtime, with what kind of install they are.
std::vector<std::pair<std::string, std::string>> candidate_dirs(Host& host) {
  std::vector<std::pair<std::string, std::string>> dirs;
  if (auto entries = host.list_dir("/usr/local"))
    for (const auto& entry : *entries)
      if (entry.starts_with("cuda"))
        for (const char* sub : {"/lib64", "/lib", "/targets/x86_64-linux/lib", "/targets/sbsa-linux/lib"})
          dirs.emplace_back("/usr/local/" + entry + sub, "toolkit");
  std::vector<std::string> site_dirs;
  auto add_python_lib = [&](const std::string& lib_dir) {
    auto entries = host.list_dir(lib_dir);
    if (!entries) return;
    for (const auto& entry : *entries)
      if (entry.starts_with("python3"))
        for (const char* sub : {"/site-packages", "/dist-packages"}) site_dirs.push_back(lib_dir + "/" + entry + sub);
  };
  for (const char* variable : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (auto prefix = host.env(variable); prefix && prefix->starts_with("/")) {
      add_python_lib(*prefix + "/lib");
      if (std::string_view(variable) == "CONDA_PREFIX") {
        dirs.emplace_back(*prefix + "/lib", "conda");
        dirs.emplace_back(*prefix + "/targets/x86_64-linux/lib", "conda");
      }
    }
  add_python_lib("/usr/local/lib");
  site_dirs.push_back("/usr/lib/python3/dist-packages");
  for (const auto& site : site_dirs) {
    auto packages = host.list_dir(site + "/nvidia");
    if (!packages) continue;
    for (const auto& package : *packages) dirs.emplace_back(site + "/nvidia/" + package + "/lib", "wheel");
  }
  return dirs;
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

json::object describe_library(Host& host, const std::string& path, const std::string& stem, const std::string& package,
                              const std::string& json_key) {
  const std::string real = real_path(host, path);
  json::object item{{"path", path}, {"real_path", real}, {"source", real}};
  // Read the header: it must really be a library, and a snapshot keeps it.
  const auto elf = read_elf(host, real);
  if (elf.info && elf.info->soname) item["soname"] = *elf.info->soname;
  if (elf.error) item["problem"] = elf.error->message;
  if (auto version = version_from_file_name(real, stem)) {
    item["version"] = *version;
    item["version_source"] = "file name";
  } else if (auto packaged = package_version(host, real, package, json_key)) {
    item["version"] = packaged->version;
    item["version_source"] = packaged->source;
  }
  return item;
}

class RuntimeSurvey {
 public:
  explicit RuntimeSurvey(ProbeContext& context)
      : m_host(context.host), m_simulation(context.host, detect_host_loader_config(context.host)) {
    m_simulation.load_plain_program();
  }

  void add_loader_runtimes() {
    for (const char* soname : k_runtime_sonames) {
      const auto resolution = m_simulation.dlopen(soname, "(a program without RPATH or RUNPATH)");
      if (!resolution.path) continue;
      m_loader_hits[real_path(m_host, *resolution.path)] = resolution.via + (resolution.via_detail.empty() ? "" : " (" + resolution.via_detail + ")");
      add_dir(dirname_of(*resolution.path), "loader");
    }
  }

  void add_dir(const std::string& dir, const std::string& origin) {
    auto names = m_host.list_dir(dir);
    if (!names) return;
    const auto file = soname_file(*names, "libcudart.so");
    if (!file) return;
    const std::string path = dir + "/" + *file;
    const std::string real = real_path(m_host, path);
    if (!m_seen.insert(real).second) return;
    json::object runtime = describe_library(m_host, path, "libcudart.so", "nvidia_cuda_runtime", "cuda_cudart");
    runtime["name"] = *file;
    runtime["install"] = origin == "loader" ? guess_install(dir) : origin;
    const auto hit = m_loader_hits.find(real);
    runtime["via"] = hit == m_loader_hits.end() ? json::value("not on the loader's path") : json::value(hit->second);
    runtime["loader_reaches"] = hit != m_loader_hits.end();
    runtime["libraries"] = libraries_beside(dir, *names, runtime.at("install").as_string() == "wheel");
    m_runtimes.push_back(std::move(runtime));
  }

  json::array runtimes() { return m_runtimes; }

  // A library the loader takes from elsewhere than beside the runtime
  // (LD_LIBRARY_PATH ahead of a wheel's RUNPATH, FC-30 and FC-32).
  json::array shadowed() {
    json::array found;
    for (const auto& runtime : m_runtimes) {
      if (!runtime.as_object().at("loader_reaches").as_bool()) continue;
      for (const auto& library : runtime.as_object().at("libraries").as_array()) {
        const auto& item = library.as_object();
        const std::string name(item.at("name").as_string());
        const auto resolution = m_simulation.dlopen(name, "(a program without RPATH or RUNPATH)");
        if (!resolution.path) continue;
        const std::string real = real_path(m_host, *resolution.path);
        if (real == item.at("real_path").as_string()) continue;
        json::object entry{{"name", name}, {"beside_runtime", item.at("real_path")}, {"loader_takes", real}, {"via", resolution.via}};
        if (const auto* version = item.if_contains("version")) entry["beside_version"] = *version;
        if (auto version = version_from_file_name(real, std::string(item.at("stem").as_string()))) entry["loader_version"] = *version;
        found.push_back(std::move(entry));
      }
    }
    return found;
  }

 private:
  static std::string guess_install(const std::string& dir) {
    if (contains(dir, "/site-packages/") || contains(dir, "/dist-packages/")) return "wheel";
    if (dir.starts_with("/usr/local/cuda")) return "toolkit";
    if (contains(dir, "conda") || contains(dir, "/envs/")) return "conda";
    return "system";
  }

  json::array libraries_beside(const std::string& dir, const std::vector<std::string>& names, bool wheel) {
    json::array found;
    std::vector<std::pair<std::string, std::vector<std::string>>> places{{dir, names}};
    if (wheel)  // wheels keep cuDNN, NCCL and friends in sibling nvidia/<package>/lib directories
      if (auto packages = m_host.list_dir(dirname_of(dirname_of(dir))))
        for (const auto& package : *packages) {
          const std::string sibling = dirname_of(dirname_of(dir)) + "/" + package + "/lib";
          if (sibling == dir) continue;
          if (auto entries = m_host.list_dir(sibling)) places.emplace_back(sibling, *entries);
        }
    for (const auto& library : k_cuda_libraries) {
      for (const auto& [place, entries] : places) {
        const auto file = soname_file(entries, library.stem);
        if (!file) continue;
        auto item = describe_library(m_host, place + "/" + *file, library.stem, library.package, "");
        item["name"] = *file;
        item["label"] = library.label;
        item["stem"] = library.stem;
        found.push_back(std::move(item));
        break;
      }
    }
    return found;
  }

  Host& m_host;
  LoadSimulation m_simulation;
  std::map<std::string, std::string> m_loader_hits;  // real path -> how the loader found it
  std::set<std::string> m_seen;
  json::array m_runtimes;
};

std::string summary_of(const json::array& runtimes) {
  if (runtimes.empty()) return "no CUDA runtime (libcudart) found";
  const auto& first = runtimes.front().as_object();
  std::string text = std::string(first.at("name").as_string());
  if (const auto* version = first.if_contains("version")) text += " " + std::string(version->as_string());
  text += " (" + std::string(first.at("install").as_string()) + ", " + dirname_of(std::string(first.at("path").as_string())) + ")";
  for (const auto& library : first.at("libraries").as_array()) {
    const auto& item = library.as_object();
    if (item.at("label").as_string() != "cuDNN") continue;
    text += ", cuDNN";
    if (const auto* version = item.if_contains("version")) text += " " + std::string(version->as_string());
  }
  if (runtimes.size() > 1) text += ", and " + std::to_string(runtimes.size() - 1) + " more";
  return text;
}

}  // namespace

// The driver a runtime here will talk to: a cuda-compat libcuda when the
// loader picks one, else the kernel module's driver.
void add_driver_levels(ProbeContext& context, json::object& runtime) {
  const CudaTables& tables = context.rules.cuda;
  const std::string name(runtime.at("name").as_string());
  const auto* version = runtime.if_contains("version");
  std::optional<Version> parsed = version ? Version::parse(version->as_string()) : std::nullopt;
  const std::string soname_major = name.substr(std::string("libcudart.so.").size());
  const int major = parsed ? static_cast<int>(parsed->major()) : static_cast<int>(Version::parse(soname_major) ? Version::parse(soname_major)->major() : 0);
  if (major == 0) return;
  runtime["cuda_major"] = major;
  if (parsed) runtime["cuda"] = std::to_string(parsed->major()) + "." + std::to_string(parsed->minor());
  if (auto mvc = tables.mvc_minimum(major)) runtime["mvc_min"] = mvc->text();
  if (auto cc = tables.min_compute_capability(major)) runtime["min_cc"] = cc->text();
  if (runtime.contains("cuda"))
    if (auto cuda = Version::parse(runtime.at("cuda").as_string()))
      if (auto driver = tables.toolkit_driver(*cuda)) runtime["toolkit_driver"] = driver->text();
  const auto& driver_libs = context.facts_of("driver-libs");
  const auto& kernel = context.facts_of("kernel-module");
  const json::object* libcuda = nullptr;
  if (const auto* libraries = driver_libs.if_contains("libraries"); libraries && !libraries->as_array().empty())
    libcuda = &libraries->as_array().front().as_object();
  if (libcuda && libcuda->if_contains("kind") && libcuda->at("kind").as_string() == "compat" && libcuda->contains("cuda")) {
    runtime["driver_cuda"] = libcuda->at("cuda");
    runtime["driver_version"] = libcuda->at("version");
    runtime["driver_source"] = "cuda-compat " + std::string(libcuda->at("version").as_string());
  } else if (kernel.contains("driver_cuda") && kernel.contains("version")) {
    runtime["driver_cuda"] = kernel.at("driver_cuda");
    runtime["driver_version"] = kernel.at("version");
    runtime["driver_source"] = "driver " + std::string(kernel.at("version").as_string());
  }
  if (const auto* cuda = runtime.if_contains("driver_cuda"))
    runtime["driver_cuda_major"] = static_cast<std::int64_t>(Version::parse(cuda->as_string())->major());
}

LayerFacts probe_cuda_runtime(ProbeContext& context) {
  LayerFacts layer{"cuda-runtime", Status::unknown, "", {}, {}};
  RuntimeSurvey survey(context);
  survey.add_loader_runtimes();
  for (const auto& [dir, origin] : candidate_dirs(context.host)) survey.add_dir(dir, origin);
  json::array runtimes = survey.runtimes();
  for (auto& runtime : runtimes) add_driver_levels(context, runtime.as_object());
  layer.set("runtime_count", static_cast<std::int64_t>(runtimes.size()));
  layer.set("shadowed", survey.shadowed(), "dlopen search from a plain program");
  layer.set("runtimes", runtimes, "loader search, /usr/local/cuda*, Python site-packages, CONDA_PREFIX");
  layer.summary = summary_of(runtimes);
  if (!runtimes.empty()) layer.status = Status::ok;
  return layer;
}

}  // namespace gd
