#include "probes/python_frameworks.h"

#include "formats/elf_file.h"
#include "probes/cupy_and_jax.h"
#include "probes/framework_libraries.h"
#include "probes/library_files.h"
#include "probes/python_envs.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <set>

namespace gd {

namespace {

// The version of the first installed distribution among names (normalised).
std::optional<std::string> installed_version(const InstalledPackages& installed, std::initializer_list<std::string_view> names) {
  const auto found = find_distribution(installed, [&](std::string_view normal) { return std::find(names.begin(), names.end(), normal) != names.end(); });
  return found ? std::optional(found->second) : std::nullopt;
}

// The first site (in search order) that has the distribution, and its version.
std::optional<std::pair<std::string, std::string>> first_installed(const Environments& environments, std::string_view wanted) {
  for (const auto& [site, installed] : environments)
    if (auto version = installed_version(installed, {wanted})) return std::pair{site, *version};
  return std::nullopt;
}

std::string dist_info_metadata(const InstalledPackages& installed, const std::string& site, std::string_view wanted) {
  for (const auto& [name, version] : installed)
    if (normalized_package_name(name) == wanted) return site + "/" + name + "-" + version + ".dist-info/METADATA";
  return {};
}

// "2.5.1+cu124" -> "2.5.1": the public version that pins name.

// "+cu118" in a local version label -> "11.8"; "+cu124" -> "12.4".
std::optional<std::string> cuda_of_local_label(std::string_view version) {
  const auto at = version.find("+cu");
  if (at == std::string_view::npos) return std::nullopt;
  const auto digits = version.substr(at + 3);
  if (digits.size() < 3 || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  return std::string(digits.substr(0, digits.size() - 1)) + "." + std::string(digits.substr(digits.size() - 1));
}

// The CUDA major a library links against: its DT_NEEDED libcudart.so.12 or libcublas.so.12.
std::optional<std::string> cuda_major_of_links(Host& host, const std::string& library) {
  const auto elf = read_elf(host, library);
  if (!elf) return std::nullopt;
  for (const auto& needed : elf->needed)
    if (const auto major = cuda_major_of_soname(needed)) return std::to_string(*major);
  return std::nullopt;
}

// The CUDA build a framework records (and where), else the major of the
// CUDA libraries its own library links.
void set_cuda_build(Host& host, FrameworkFacts& facts, const std::optional<std::string>& recorded, const char* recorded_source,
                    const std::string& library) {
  if (recorded && Version::parse(*recorded)) {
    facts.cuda = *recorded;
    facts.cuda_source = recorded_source;
  } else if (auto major = cuda_major_of_links(host, library)) {
    facts.cuda = *major;
    facts.cuda_source = "the CUDA major of the libraries " + std::string(base_name(library)) + " links";
  }
}

std::string first_existing(Host& host, const std::string& site, std::initializer_list<const char*> candidates) {
  for (const char* candidate : candidates)
    if (host.stat(site + "/" + candidate)) return site + "/" + candidate;
  return {};
}

// Of a framework's libraries, the first whose RUNPATH (or RPATH) reaches the
// NVIDIA wheels (TensorFlow builds put $ORIGIN/../nvidia/... on those that
// open CUDA); else the first that exists. Which one calls dlopen decides
// whose RUNPATH is searched, and a false "not found" is the error to avoid.
std::string library_reaching_wheels(Host& host, const std::string& site, std::initializer_list<const char*> candidates) {
  for (const char* candidate : candidates) {
    const auto elf = read_elf(host, site + "/" + candidate);
    if (!elf) continue;
    const auto& path = elf->runpath ? elf->runpath : elf->rpath;
    if (path && path->find("/nvidia/") != std::string::npos) return site + "/" + candidate;
  }
  return first_existing(host, site, candidates);
}

// torch pins the NVIDIA wheels it was built with (nvidia-cudnn-cu12==9.1.0.70):
// that is the cuDNN, NCCL, cuBLAS... version it expects to load.
void built_against_from_pins(const std::vector<std::pair<std::string, std::string>>& pins, std::map<std::string, std::string>& out) {
  for (const auto& [package, version] : pins)
    for (const auto& kind : cuda_library_kinds()) {
      const std::string prefix = kind.package;
      if (package == prefix || (package.starts_with(prefix + "_cu") && package.find('_', prefix.size() + 1) == std::string::npos))
        out.emplace(kind.label, version);
    }
}

std::optional<FoundFramework> find_torch(Host& host, const std::string& site, const InstalledPackages& installed) {
  const auto torch = read_torch_version(host, site + "/torch/version.py");
  if (!torch) return std::nullopt;
  FoundFramework found;
  auto& facts = found.facts;
  facts.name = "torch";
  facts.version = torch->version;
  facts.cuda = torch->cuda;
  if (torch->cuda) facts.cuda_source = "torch/version.py";
  facts.cpu_only = torch->cpu_only;
  facts.path = printable(site + "/torch", 300);
  if (const auto metadata = dist_info_metadata(installed, site, "torch"); !metadata.empty()) found.pins = pinned_requirements(host, metadata);
  if (torch->cpu_only) return found;
  const std::string library = site + "/torch/lib/libtorch_cuda.so";
  found.gpu_code = library;
  if (host.stat(library)) found.loads_through = library;
  built_against_from_pins(found.pins, found.built_against);
  if (auto cudnn = found.built_against.find("cuDNN"); cudnn != found.built_against.end()) facts.cudnn = cudnn->second;
  return found;
}

// The libraries TensorFlow's dso_loader opens by name for a CUDA major.
std::vector<std::string> tensorflow_dlopens(int major, const std::optional<std::string>& cudnn) {
  std::vector<std::string> names;
  if (major == 11)
    names = {"libcudart.so.11.0", "libcublas.so.11", "libcublasLt.so.11", "libcufft.so.10", "libcusolver.so.11", "libcusparse.so.11"};
  else if (major == 12)
    names = {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11", "libcusolver.so.11", "libcusparse.so.12"};
  else
    names = {"libcudart.so." + std::to_string(major), "libcublas.so." + std::to_string(major)};
  if (const auto version = cudnn ? Version::parse(*cudnn) : std::nullopt) names.push_back("libcudnn.so." + std::to_string(version->major()));
  return names;
}

std::optional<FoundFramework> find_tensorflow(Host& host, const std::string& site, const InstalledPackages& installed) {
  const auto info = read_tensorflow_build_info(host, site + "/tensorflow/python/platform/build_info.py");
  if (!info) return std::nullopt;
  FoundFramework found;
  auto& facts = found.facts;
  facts.name = "tensorflow";
  facts.version = installed_version(installed, {"tensorflow", "tensorflow_cpu", "tensorflow_gpu", "tf_nightly", "tensorflow_intel"});
  facts.path = printable(site + "/tensorflow", 300);
  facts.cpu_only = info->is_cuda_build == false;
  if (facts.cpu_only) return found;
  facts.cuda = info->cuda;
  if (info->cuda) facts.cuda_source = "tensorflow/python/platform/build_info.py";
  facts.cudnn = info->cudnn;
  if (info->cudnn) found.built_against.emplace("cuDNN", *info->cudnn);
  found.build_archs = info->compute_capabilities;
  found.gpu_code = first_existing(host, site, {"tensorflow/libtensorflow_cc.so.2", "tensorflow/python/_pywrap_tensorflow_internal.so"});
  found.loads_through = library_reaching_wheels(host, site, {"tensorflow/libtensorflow_framework.so.2", "tensorflow/python/_pywrap_tensorflow_internal.so"});
  const auto cuda = info->cuda ? Version::parse(*info->cuda) : std::nullopt;
  if (cuda && !found.loads_through.empty()) found.dlopens = tensorflow_dlopens(static_cast<int>(cuda->major()), info->cudnn);
  return found;
}

std::optional<FoundFramework> find_onnxruntime(Host& host, const std::string& site, const InstalledPackages& installed) {
  const std::string provider = site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so";
  if (!host.stat(provider)) return std::nullopt;
  FoundFramework found;
  auto& facts = found.facts;
  facts.name = "onnxruntime-gpu";
  const auto info = read_python_strings(host, site + "/onnxruntime/capi/build_and_package_info.py");
  const auto version = info.find("__version__");
  facts.version = version != info.end() ? std::optional(version->second) : installed_version(installed, {"onnxruntime_gpu", "ort_nightly_gpu"});
  facts.path = printable(site + "/onnxruntime", 300);
  const auto cuda = info.find("cuda_version");
  set_cuda_build(host, facts, cuda != info.end() ? std::optional(cuda->second) : std::nullopt, "onnxruntime/capi/build_and_package_info.py",
                 provider);
  found.gpu_code = provider;
  found.loads_through = provider;
  return found;
}

std::optional<FoundFramework> find_vllm(Host& host, const std::string& site, const InstalledPackages& installed) {
  const std::string library = site + "/vllm/_C.abi3.so";
  if (!host.stat(library)) return std::nullopt;
  FoundFramework found;
  auto& facts = found.facts;
  facts.name = "vllm";
  facts.version = installed_version(installed, {"vllm"});
  facts.path = printable(site + "/vllm", 300);
  set_cuda_build(host, facts, facts.version ? cuda_of_local_label(*facts.version) : std::nullopt, "its +cuXYZ version label", library);
  found.gpu_code = library;
  found.loads_through = library;
  // vLLM imports torch first: torch's CUDA libraries are already loaded.
  if (host.stat(site + "/torch/lib/libtorch_cuda.so")) found.preloads.push_back(site + "/torch/lib/libtorch_cuda.so");
  return found;
}

constexpr std::array<std::string_view, 6> k_torch_extensions = {"torchvision", "torchaudio", "torchtext", "xformers", "vllm", "torch_tensorrt"};

}  // namespace

std::vector<FoundFramework> find_python_frameworks(Host& host, const std::string& site, const InstalledPackages& installed) {
  std::vector<FoundFramework> found;
  for (auto finder : {find_torch, find_tensorflow, find_onnxruntime, find_vllm, find_cupy, find_jax_plugin})
    if (auto framework = finder(host, site, installed)) found.push_back(std::move(*framework));
  return found;
}

std::vector<WheelPin> torch_pins(Host& host, const Environments& environments) {
  std::vector<WheelPin> pins;
  const auto torch = first_installed(environments, "torch");
  for (const auto& [site, installed] : environments)
    for (const auto& [name, version] : installed) {
      const auto normal = normalized_package_name(name);
      if (std::find(k_torch_extensions.begin(), k_torch_extensions.end(), normal) == k_torch_extensions.end()) continue;
      for (const auto& [package, required] : pinned_requirements(host, site + "/" + name + "-" + version + ".dist-info/METADATA")) {
        if (package != "torch" || pins.size() >= 32) continue;
        WheelPin pin{.framework = name + " " + version,
                     .package = "torch",
                     .required = required,
                     .installed = torch ? std::optional(torch->second) : std::nullopt,
                     .relation = VersionRelation::missing};
        if (torch) pin.relation = pin_relation(public_version(torch->second), public_version(required));
        pins.push_back(std::move(pin));
      }
    }
  return pins;
}

namespace {

// JAX compares versions by their dotted numeric prefix: "0.4.38.dev2026" is 0.4.38.
std::optional<Version> numeric_prefix(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || (text[end] == '.' && end + 1 < text.size() && text[end + 1] >= '0' && text[end + 1] <= '9')))
    ++end;
  return Version::parse(text.substr(0, end));
}

VersionRelation relation_of(const std::optional<Version>& have, const std::optional<Version>& low, const std::optional<Version>& high) {
  if (!have) return VersionRelation::unknown;
  if (low && *have < *low) return VersionRelation::older;
  if (high && *high < *have) return VersionRelation::newer;
  return VersionRelation::same;
}

}  // namespace

JaxChecks jax_checks(Host& host, const Environments& environments) {
  JaxChecks checks;
  const auto jaxlib = first_installed(environments, "jaxlib");
  for (const auto& [site, installed] : environments)
    for (const auto& [name, version] : installed) {
      const auto normal = normalized_package_name(name);
      if (!normal.starts_with("jax_cuda") || !normal.ends_with("_plugin") || checks.plugins.size() >= 8) continue;
      WheelPin pin{.framework = name + " " + version,
                   .package = "jaxlib",
                   .required = version,
                   .installed = jaxlib ? std::optional(jaxlib->second) : std::nullopt,
                   .relation = VersionRelation::missing};
      if (jaxlib) {
        const auto plugin = numeric_prefix(version);
        pin.relation = relation_of(numeric_prefix(jaxlib->second), plugin, plugin);
      }
      checks.plugins.push_back(std::move(pin));
    }
  const auto jax = first_installed(environments, "jax");
  if (jax && jaxlib) {
    const auto strings = read_python_strings(host, jax->first + "/jax/version.py");
    const auto minimum = strings.find("_minimum_jaxlib_version");
    const auto low = minimum != strings.end() ? numeric_prefix(minimum->second) : std::nullopt;
    WheelPin range{.framework = "jax " + jax->second,
                   .package = "jaxlib",
                   .required = (low ? low->text() : std::string("?")) + " to " + jax->second,
                   .installed = jaxlib->second,
                   .relation = VersionRelation::same};
    range.relation = relation_of(numeric_prefix(jaxlib->second), low, numeric_prefix(jax->second));
    checks.jaxlib_ranges.push_back(std::move(range));
  }
  return checks;
}

std::vector<WheelOverlap> overlapping_wheels(Host& host, const std::string& site, const InstalledPackages& installed) {
  // nvidia_cudnn -> (major, "name-version"), for every nvidia_*_cuNN wheel
  std::map<std::string, std::vector<std::pair<int, std::string>>> by_library;
  for (const auto& [name, version] : installed) {
    const auto normal = normalized_package_name(name);
    const auto major = normal.starts_with("nvidia_") ? package_cuda_major(normal) : std::nullopt;
    if (!major) continue;
    auto& wheels = by_library[normal.substr(0, normal.rfind("_cu"))];
    if (wheels.size() < 64) wheels.emplace_back(*major, name + "-" + version);  // no environment holds more
  }
  std::vector<WheelOverlap> overlaps;
  // Each RECORD is read once, however many pairs it is in.
  std::map<std::string, std::set<std::string>> records;
  const auto library_files = [&](const std::string& dist) -> const std::set<std::string>& {
    const auto [found, fresh] = records.try_emplace(dist);
    if (!fresh) return found->second;
    if (auto text = host.read_file(site + "/" + dist + ".dist-info/RECORD", 256 * 1024))
      for (auto line : lines(*text)) {
        const auto path = line.substr(0, line.find(','));
        if (path.find(".so") != std::string_view::npos && found->second.size() < 1024) found->second.emplace(path);
      }
    return found->second;
  };
  for (const auto& [library, wheels] : by_library)
    for (std::size_t i = 0; i < wheels.size(); ++i)
      for (std::size_t j = i + 1; j < wheels.size() && overlaps.size() < 16; ++j) {
        if (wheels[i].first == wheels[j].first) continue;
        const auto& a = library_files(wheels[i].second);
        const auto& b = library_files(wheels[j].second);
        std::vector<std::string> shared;
        std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(shared));
        if (shared.empty()) continue;
        const auto label = [](const std::string& dist) { return dist.substr(0, dist.find('-')) + " " + dist.substr(dist.find('-') + 1); };
        overlaps.push_back({printable(label(wheels[i].second), 120), printable(label(wheels[j].second), 120), printable(shared.front(), 200),
                            printable(site, 300), static_cast<std::int64_t>(shared.size())});
      }
  return overlaps;
}

}  // namespace gd
