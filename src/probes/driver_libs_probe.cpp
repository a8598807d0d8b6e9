#include "probes/driver_libs_probe.h"

#include "elf/load_simulation.h"
#include "elf/search_path.h"
#include "probes/library_files.h"
#include "report/resolution_report.h"
#include "rules/cuda_tables.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <set>

namespace gd {
namespace json = boost::json;

namespace {

struct DriverLibrary {
  const char* name;
  const char* stem;  // the real file is <stem>.<driver version>
};

constexpr DriverLibrary k_libraries[] = {
    {"libcuda.so.1", "libcuda.so"},
    {"libnvidia-ml.so.1", "libnvidia-ml.so"},
    {"libnvidia-ptxjitcompiler.so.1", "libnvidia-ptxjitcompiler.so"},
    {"libnvidia-nvvm.so.4", "libnvidia-nvvm.so"},
};

// Where driver libraries are put by drivers, distributions and the toolkit.
constexpr const char* k_driver_dirs[] = {"/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/x86_64-linux-gnu",
                                         "/usr/lib/x86_64-linux-gnu/nvidia/current", "/usr/lib64", "/usr/lib/wsl/lib",
                                         "/usr/lib/aarch64-linux-gnu"};

std::string kind_of(const std::string& path, const std::string& real) {
  for (const auto* p : {&path, &real}) {
    if (contains(*p, "/stubs/")) return "stub";
    if (contains(*p, "/compat/")) return "compat";
    if (p->starts_with("/usr/lib/wsl/")) return "wsl";
  }
  return "driver";
}

// Driver libraries bind-mounted by the container toolkit are mount points
// (mountinfo's fifth field).
std::set<std::string> mount_points(Host& host) {
  std::set<std::string> points;
  auto mountinfo = host.read_file("/proc/self/mountinfo", 1 << 20);
  if (!mountinfo) return points;
  for (auto line : lines(*mountinfo)) {
    const auto fields = split(line, ' ');
    if (fields.size() > 4) points.emplace(fields[4]);
  }
  return points;
}

// The CUDA level a driver library provides, and for a cuda-compat libcuda
// which host branches it accepts: its ELF note first (what the library
// itself checks), then the forward-compatibility table (what NVIDIA supports).
void describe_driver_level(ProbeContext& context, json::object& item, const std::string& real) {
  const auto version = Version::parse(item.at("version").as_string());
  const CudaTables& tables = context.rules.cuda;
  item["branch"] = static_cast<std::int64_t>(version->major());
  if (auto cuda = tables.cuda_for_branch(static_cast<int>(version->major()))) item["cuda"] = cuda->text();
  if (item.at("kind").as_string() != "compat") return;
  for (const auto& note : read_section_notes(context.host, real, ".note.cuda.fwd_compatibility")) {
    boost::system::error_code error;
    auto payload = json::parse(note.desc.substr(0, note.desc.find('\0')), error);
    if (error || !payload.is_object()) continue;
    const auto& object = payload.as_object();
    if (const auto* cuda = object.if_contains("CUDA Version"); cuda && cuda->is_string()) item["cuda"] = *cuda;
    if (const auto* hosts = object.if_contains("Driver"); hosts && hosts->is_array()) item["accepts_host_branches"] = *hosts;
    item["note"] = ".note.cuda.fwd_compatibility";
  }
  if (const auto* cuda = item.if_contains("cuda")) {
    json::array supported;
    if (const auto parsed = cuda->is_string() ? Version::parse(cuda->get_string()) : std::nullopt)
      for (int host : tables.forward_compat_hosts(*parsed)) supported.push_back(host);
    item["supported_host_branches"] = std::move(supported);
  }
}

json::object describe(ProbeContext& context, const DriverLibrary& library, const Resolution& resolution,
                      const std::optional<std::set<std::string>>& mounts) {
  json::object item = resolution_to_json(resolution);
  item["found"] = resolution.path.has_value();
  if (!resolution.path) return item;
  const std::string real = real_path(context.host, *resolution.path);
  item["real_path"] = real;
  item["source"] = real;
  item["kind"] = kind_of(*resolution.path, real);
  // Only a driver-style version (550.54.15) counts: WSL's libcuda.so.1.1 says nothing.
  const auto version = version_from_file_name(real, library.stem);
  if (version && Version::parse(*version)->major() >= 100) item["version"] = *version;
  if (mounts) item["injected"] = mounts->count(real) > 0 || mounts->count(*resolution.path) > 0;
  if (item.contains("version")) describe_driver_level(context, item, real);
  return item;
}

json::array driver_files_elsewhere(Host& host, const std::string& found_real) {
  json::array found;
  for (const char* dir : k_driver_dirs) {
    auto names = host.list_dir(dir);
    if (!names) continue;
    for (const auto& name : *names) {
      if (!name.starts_with("libcuda.so.")) continue;
      const std::string path = std::string(dir) + "/" + name;
      if (real_path(host, path) != found_real) found.push_back(json::string(path));
    }
  }
  return found;
}

json::array stub_files(Host& host) {
  json::array stubs;
  auto entries = host.list_dir("/usr/local");
  if (!entries) return stubs;
  for (const auto& entry : *entries) {
    if (!entry.starts_with("cuda")) continue;
    for (const char* sub : {"/lib64/stubs/libcuda.so", "/lib/stubs/libcuda.so", "/targets/x86_64-linux/lib/stubs/libcuda.so"}) {
      const std::string path = "/usr/local/" + entry + sub;
      if (!host.exists(path)) continue;
      const json::string real(real_path(host, path));
      if (std::find(stubs.begin(), stubs.end(), real) == stubs.end()) stubs.push_back(real);
    }
  }
  return stubs;
}

std::optional<std::string> find_on_path(Host& host, const std::string& program) {
  // Held in a named string: split() returns views into it.
  const std::string path = host.env("PATH").value_or("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
  for (auto dir : split(path, ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    const std::string candidate = std::string(dir) + "/" + program;
    if (auto info = host.stat(candidate); info && info->type == FileType::regular) return candidate;
  }
  return std::nullopt;
}

}  // namespace

LayerFacts probe_driver_libs(ProbeContext& context) {
  LayerFacts layer{"driver-libs", Status::unknown, "", {}, {}};
  LoadSimulation simulation(context.host, detect_host_loader_config(context.host));
  simulation.load_plain_program();
  // Whether a library was injected only means something in a container.
  std::optional<std::set<std::string>> mounts;
  if (fact_is_true(context.facts_of("container"), "in_container")) mounts = mount_points(context.host);
  json::array libraries;
  std::string libcuda_real;
  for (const auto& library : k_libraries) {
    const auto resolution = simulation.dlopen(library.name, "(a program without RPATH or RUNPATH)");
    auto item = describe(context, library, resolution, mounts);
    if (std::string_view(library.name) == "libcuda.so.1" && item.contains("real_path"))
      libcuda_real = std::string(item["real_path"].as_string());
    libraries.push_back(std::move(item));
  }
  layer.set("libraries", libraries, "dlopen search: LD_LIBRARY_PATH, /etc/ld.so.cache, default directories");
  layer.set("libcuda_elsewhere", driver_files_elsewhere(context.host, libcuda_real));
  layer.set("stubs", stub_files(context.host));
  const auto smi = find_on_path(context.host, "nvidia-smi");
  layer.set("nvidia_smi", smi ? json::value(*smi) : json::value(nullptr), "PATH");
  const auto& config = simulation.config();
  layer.set("ld_library_path", config.ld_library_path ? json::value(printable(*config.ld_library_path, 400)) : json::value(nullptr),
            "env LD_LIBRARY_PATH");
  layer.set("ld_so_cache", config.cache ? json::value(config.cache->layout) : json::value(printable(config.cache_problem, 200)),
            "/etc/ld.so.cache");

  const auto& libcuda = libraries.front().as_object();
  if (libcuda.at("found").as_bool()) {
    layer.status = Status::ok;
    const auto* version = libcuda.if_contains("version");
    layer.summary = "libcuda.so.1 -> " + std::string(libcuda.at("real_path").as_string()) + " (" +
                    std::string(libcuda.at("kind").as_string()) +
                    (version ? " " + std::string(version->as_string()) : std::string()) + ", via " +
                    std::string(libcuda.at("via").as_string()) + ")";
  } else {
    layer.summary = "no libcuda.so.1 for a program to load";
  }
  return layer;
}

}  // namespace gd
