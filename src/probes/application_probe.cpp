#include "probes/application_probe.h"

#include "formats/fatbin.h"
#include "host/host_paths.h"
#include "loader/load_simulation.h"
#include "loader/search_path.h"
#include "probes/framework_libraries.h"
#include "probes/library_files.h"
#include "probes/python_envs.h"
#include "probes/python_frameworks.h"
#include "probes/triton_needs.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <boost/json.hpp>

#include <algorithm>
#include <set>

namespace gd {

namespace {

// "torch 2.5.1+cu124": how findings name a framework.
std::string framework_label(const FrameworkFacts& framework) {
  return framework.name + (framework.version ? " " + *framework.version : std::string());
}

// Code for arch serves compute capability cc within its major, at an equal
// or higher minor: portable and family SASS (sm_86 on 8.9, not on 9.0), family PTX.
bool within_major(int arch, int cc) { return arch / 10 == cc / 10 && arch % 10 <= cc % 10; }

// Packages whose presence and version a user asking "will it run" wants to see.
// Matched against normalised names (nvidia-cudnn-cu12 is nvidia_cudnn_cu12).
constexpr const char* k_gpu_package_prefixes[] = {"nvidia_", "jax_cuda", "jaxlib", "cupy", "tensorflow", "vllm", "onnxruntime_gpu",
                                                  "numba", "cuda_python", "cuda_bindings", "torch", "pytorch_triton"};

int arch_of(const std::string& compute_capability) {
  const auto version = Version::parse(compute_capability);
  return version ? static_cast<int>(version->major() * 10 + version->minor()) : 0;
}

// "sm_80 sm_90a sm_100f": every SASS architecture, by number, suffixed as nvcc names it.
std::string sass_list(const FatbinContents& code) {
  std::map<int, std::string> names;
  for (int arch : code.sass) names[arch * 4] = "sm_" + std::to_string(arch);
  for (int arch : code.sass_specific) names[arch * 4 + 1] = "sm_" + std::to_string(arch) + "a";
  for (int arch : code.sass_family) names[arch * 4 + 2] = "sm_" + std::to_string(arch) + "f";
  std::string out;
  for (const auto& [order, name] : names) out += (out.empty() ? "" : " ") + name;
  return out.empty() ? "none" : out;
}

// " (PTX ISA 8.4)"; nothing where a build info lists the PTX without its ISA.
std::string isa_note(const std::string& isa) { return isa.empty() ? std::string() : " (PTX ISA " + isa + ")"; }

// "compute_90 (PTX ISA 8.4), compute_100a (PTX ISA 9.0)"
std::string ptx_list(const FatbinContents& code) {
  std::map<int, std::string> names;
  const auto add = [&](const std::map<int, std::string>& ptx, int variant, const char* suffix) {
    for (const auto& [arch, isa] : ptx) names[arch * 4 + variant] = "compute_" + std::to_string(arch) + suffix + isa_note(isa);
  };
  add(code.ptx, 0, "");
  add(code.ptx_specific, 1, "a");
  add(code.ptx_family, 2, "f");
  std::string out;
  for (const auto& [order, name] : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

struct Gpu {
  std::string name;  // its address
  int arch = 0;      // 90 for 9.0
};

// The GPUs to judge against: PCI's view, or CUDA's where PCI is hidden (WSL2, some VMs).
std::vector<Gpu> gpus_of(const ProbeContext& context) {
  std::vector<Gpu> gpus;
  for (const auto& gpu : context.hardware.gpus)
    if (gpu.compute_capability) gpus.push_back({gpu.bdf, arch_of(*gpu.compute_capability)});
  if (gpus.empty() && context.driver_libs.cuda_probe)
    for (const auto& device : context.driver_libs.cuda_probe->devices)
      if (device.compute_capability) gpus.push_back({device.bus_id.value_or(std::to_string(device.index)), arch_of(*device.compute_capability)});
  return gpus;
}

std::optional<std::string> driver_cuda_of(const ProbeContext& context) {
  if (context.kernel_module.driver_cuda) return context.kernel_module.driver_cuda;
  if (context.driver_libs.cuda_probe && context.driver_libs.cuda_probe->cuda_version) return context.driver_libs.cuda_probe->cuda_version;
  return std::nullopt;
}

// What gives this GPU code: for torch, the newest wheel index whose builds
// carry SASS for it and whose CUDA major this driver runs (minor-version
// compatibility within a major); for anything else, the nvcc targets to add.
void add_install_hint(GpuCodeCheck& check, const FrameworkFacts& framework, int cc, const std::optional<std::string>& driver_cuda,
                      const CudaTables& tables) {
  const std::string arch = std::to_string(cc);
  if (framework.name != "torch") {
    check.install_hint = "rebuild it with `-gencode arch=compute_" + arch + ",code=sm_" + arch + "` (and code=compute_" + arch +
                         " for PTX that later GPUs can JIT-compile)";
    return;
  }
  const auto driver = driver_cuda ? Version::parse(*driver_cuda) : std::nullopt;
  for (const auto& row : tables.torch_indexes()) {
    const bool runs_here = !driver || driver->major() >= row.cuda.major();
    const bool carries = std::any_of(row.sass.begin(), row.sass.end(), [cc](int sass) { return within_major(sass, cc); });
    if (!runs_here || !carries) continue;
    check.suggested_index = row.index;
    check.install_hint = "`pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/" + row.index +
                         "` (the newest index with it" + (driver ? " that this driver runs" : std::string()) + "; uv: `uv pip install`)";
    return;
  }
  check.install_hint = std::string(driver ? "no PyTorch index this driver runs has it: upgrade the driver, or build" : "build") +
                       " PyTorch from source with TORCH_CUDA_ARCH_LIST=" + compute_capability_of(cc);
}

// A build info's list ("sm_80", "sm_90a", "compute_90") as fatbin contents,
// PTX without its ISA: that PTX came with the framework's own CUDA.
FatbinContents contents_from_arch_list(const std::vector<std::string>& archs) {
  FatbinContents contents;
  for (const auto& entry : archs) {
    const bool sass = entry.starts_with("sm_");
    std::string digits = entry.substr(entry.find('_') + 1);
    const char suffix = !digits.empty() && (digits.back() == 'a' || digits.back() == 'f') ? digits.back() : 0;
    if (suffix) digits.pop_back();
    if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const int arch = std::stoi(digits);
    contents.has_fatbin = true;
    if (sass) (suffix == 'a' ? contents.sass_specific : suffix == 'f' ? contents.sass_family : contents.sass).insert(arch);
    else (suffix == 'a' ? contents.ptx_specific : suffix == 'f' ? contents.ptx_family : contents.ptx)[arch] = "";
  }
  return contents;
}

void read_gpu_code(ProbeContext& context, FrameworkFacts& framework, const std::string& file,
                   const std::vector<std::string>& build_archs, ApplicationFacts& facts) {
  FatbinContents contents;
  if (!file.empty()) {
    contents = read_fatbin(context.host, file);
    framework.library = printable(file, 300);
    framework.code_source = ".nv_fatbin of " + std::string(base_name(file));
  }
  // No readable fatbin (TensorFlow keeps its kernels in libraries we may not
  // find): the architecture list its build info records is the next best.
  if (!contents.has_fatbin && !build_archs.empty()) {
    contents = contents_from_arch_list(build_archs);
    framework.code_source = "the build info's cuda_compute_capabilities";
  }
  framework.problems = contents.problems;
  if (!contents.has_fatbin) return;
  std::vector<std::string> sass, ptx;
  for (int arch : contents.sass) sass.push_back(compute_capability_of(arch));
  for (int arch : contents.sass_specific) sass.push_back(compute_capability_of(arch) + "a");
  for (int arch : contents.sass_family) sass.push_back(compute_capability_of(arch) + "f");
  for (const auto& [arch, isa] : contents.ptx) ptx.push_back(compute_capability_of(arch) + isa_note(isa));
  for (const auto& [arch, isa] : contents.ptx_specific) ptx.push_back(compute_capability_of(arch) + "a" + isa_note(isa));
  for (const auto& [arch, isa] : contents.ptx_family) ptx.push_back(compute_capability_of(arch) + "f" + isa_note(isa));
  framework.sass = sass;
  framework.ptx = ptx;
  framework.compressed_entries = static_cast<std::int64_t>(contents.compressed_entries);
  const auto driver_cuda = driver_cuda_of(context);
  for (const auto& gpu : gpus_of(context)) {
    if (gpu.arch <= 0) continue;
    auto check = check_gpu_code(framework, contents, gpu.name, gpu.arch, driver_cuda, context.rules.cuda);
    // What a damaged fatbin hid may be the very code this GPU needs: never a false "none".
    if (!contents.problems.empty() && check.kernel_image == KernelImage::none) check.kernel_image = KernelImage::unknown;
    add_install_hint(check, framework, gpu.arch, driver_cuda, context.rules.cuda);
    facts.checks.push_back(std::move(check));
  }
}

// The framework's CUDA major against the driver's. Where the driver is too
// old, both ways out: the driver its major needs, and (torch) the newest
// build of the same torch release, from an index this driver runs, that
// carries code for every GPU here.
void judge_against_driver(ProbeContext& context, FrameworkFacts& framework) {
  const auto driver_text = driver_cuda_of(context);
  const auto driver = driver_text ? Version::parse(*driver_text) : std::nullopt;
  const auto cuda = framework.cuda ? Version::parse(*framework.cuda) : std::nullopt;
  if (!driver || !cuda) return;
  framework.driver_cuda = *driver_text;
  if (cuda->major() <= driver->major()) {
    framework.driver_relation = DriverRelation::same_major;
    if (cuda->major() < driver->major()) framework.driver_relation = DriverRelation::older_major;
    return;
  }
  framework.driver_relation = DriverRelation::needs_newer_driver;
  const auto& tables = context.rules.cuda;
  if (auto minimum = tables.mvc_minimum(static_cast<int>(cuda->major()))) framework.driver_needed = minimum->text();
  const auto gpus = gpus_of(context);
  const auto torch = framework.version ? Version::parse(framework.version->substr(0, framework.version->find('+'))) : std::nullopt;
  if (framework.name == "torch" && torch) {
    auto indexes = tables.torch_release_indexes(*torch);  // by major and minor
    std::sort(indexes.rbegin(), indexes.rend());
    for (int index : indexes) {
      if (index / 10 > static_cast<int>(driver->major())) continue;
      const std::string name = "cu" + std::to_string(index);
      const auto row = std::find_if(tables.torch_indexes().begin(), tables.torch_indexes().end(), [&](const auto& r) { return r.index == name; });
      const bool carries_all = std::all_of(gpus.begin(), gpus.end(), [&](const Gpu& gpu) {
        return row == tables.torch_indexes().end() || std::any_of(row->sass.begin(), row->sass.end(), [&](int sass) { return within_major(sass, gpu.arch); });
      });
      if (!carries_all) continue;
      const std::string version = std::to_string(torch->major()) + "." + std::to_string(torch->minor()) + "." + std::to_string(torch->component(2));
      framework.alternative_build = "torch " + version + "+" + name;
      framework.alternative_hint = "`pip install --force-reinstall torch==" + version + " --index-url https://download.pytorch.org/whl/" + name +
                                   "` (uv: `uv pip install`)";
      return;
    }
  }
  framework.alternative_build = "a build of " + framework.name + " for CUDA " + std::to_string(driver->major());
  framework.alternative_hint = framework.name == "torch" ? "an older torch release from a cu" + std::to_string(driver->major()) + "x index of https://download.pytorch.org/whl/"
                                                         : "see its installation guide for the release that matches CUDA " + std::to_string(driver->major());
}

// nvcc's CUDA version from files: the toolkit's version.json, else its
// nvidia_cuda_nvcc dist-info (pip-style toolkits, as on CUDA 13 installs).
std::optional<std::pair<std::string, std::string>> nvcc_version(Host& host, const std::string& root) {
  if (auto text = host.read_file(root + "/version.json", 64 * 1024)) {
    boost::system::error_code error;
    auto document = boost::json::parse(*text, error);
    if (!error && document.is_object())
      if (const auto* nvcc = document.as_object().if_contains("cuda_nvcc"); nvcc && nvcc->is_object())
        if (const auto* version = nvcc->as_object().if_contains("version"); version && version->is_string())
          if (Version::parse(version->as_string())) return std::pair{std::string(version->as_string()), root + "/version.json"};
  }
  for (const auto& [name, version] : installed_packages(host, root + "/dist-info"))
    if (name == "nvidia_cuda_nvcc" && Version::parse(version)) return std::pair{version, root + "/dist-info"};
  return std::nullopt;
}

// "#if __GNUC__ > 13" in the toolkit's host_config.h: the newest gcc nvcc accepts.
std::optional<std::int64_t> max_gcc_of(Host& host, const std::string& toolkit) {
  auto text = host.read_file(toolkit + "/include/crt/host_config.h", 256 * 1024);
  if (!text) return std::nullopt;
  const std::string_view marker = "#if __GNUC__ > ";
  const auto at = text->find(marker);
  if (at == std::string::npos) return std::nullopt;
  std::int64_t value = 0;
  std::size_t i = at + marker.size(), digits = 0;
  for (; i < text->size() && digits < 3 && (*text)[i] >= '0' && (*text)[i] <= '9'; ++i, ++digits) value = value * 10 + ((*text)[i] - '0');
  return digits ? std::optional<std::int64_t>(value) : std::nullopt;
}

// The major of a gcc from its real file name (gcc-12, x86_64-linux-gnu-gcc-14),
// else from the one version directory under /usr/lib/gcc/<triplet>/.
std::optional<std::int64_t> gcc_major_of(Host& host, const std::string& real) {
  const std::string name(base_name(real));
  const auto dash = name.rfind('-');
  if (name.find("gcc") != std::string::npos || name.find("g++") != std::string::npos)
    if (dash != std::string::npos && dash + 1 < name.size() && name.find_first_not_of("0123456789", dash + 1) == std::string::npos &&
        name.size() - dash - 1 <= 3)
      return std::stoll(name.substr(dash + 1));
  if (auto triplets = host.list_dir("/usr/lib/gcc"); triplets && triplets->size() == 1)
    if (auto versions = host.list_dir("/usr/lib/gcc/" + triplets->front()); versions && versions->size() == 1) {
      const auto major = versions->front().substr(0, versions->front().find('.'));
      if (!major.empty() && major.size() <= 3 && major.find_first_not_of("0123456789") == std::string::npos) return std::stoll(major);
    }
  return std::nullopt;
}

// The host compiler a build with nvcc would use: NVCC_CCBIN (nvcc's own
// variable), else the gcc first on PATH.
void find_host_compiler(Host& host, ToolchainFacts& toolchain) {
  std::optional<std::string> compiler = host.env("NVCC_CCBIN");
  if (compiler && !compiler->starts_with("/")) compiler = find_on_path(host, *compiler);
  if (!compiler) compiler = find_on_path(host, "gcc");
  if (!compiler) return;
  const std::string real = real_path(host, *compiler);
  if (real.find("clang") != std::string::npos) return;  // clang has its own range; not judged here
  toolchain.host_compiler = printable(real, 300);
  toolchain.host_compiler_major = gcc_major_of(host, real);
  if (toolchain.host_compiler_major && toolchain.max_gcc) toolchain.host_compiler_supported = *toolchain.host_compiler_major <= *toolchain.max_gcc;
}

void find_toolchains(Host& host, ApplicationFacts& facts) {
  std::vector<std::pair<std::string, bool>> candidates;  // bin directory, is it PATH's first nvcc
  bool first = true;
  const std::string path = host.env("PATH").value_or("");
  for (auto dir : split(path, ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    const std::string nvcc = std::string(dir) + "/nvcc";
    if (auto info = host.stat(nvcc); info && info->type == FileType::regular) {
      candidates.emplace_back(std::string(dir), first);
      first = false;
    }
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (auto home = host.env(variable); home && home->starts_with("/")) candidates.emplace_back(*home + "/bin", false);
  if (auto entries = host.list_dir("/usr/local"))
    for (const auto& entry : *entries)
      if (entry.starts_with("cuda")) candidates.emplace_back("/usr/local/" + entry + "/bin", false);
  std::set<std::string> seen;
  for (const auto& [bin, on_path] : candidates) {
    const std::string nvcc = bin + "/nvcc";
    const std::string real = real_path(host, nvcc);
    if (facts.toolchains.size() >= 16 || !host.stat(nvcc) || !seen.insert(real).second) continue;
    ToolchainFacts toolchain;
    toolchain.nvcc = printable(nvcc, 300);
    toolchain.on_path = on_path;
    const std::string toolkit = dir_name(dir_name(real));
    if (auto version = nvcc_version(host, toolkit)) {
      toolchain.version = printable(version->first, 40);
      toolchain.version_source = printable(version->second, 300);
    }
    if (on_path) {  // only the compiler a build here runs is judged
      toolchain.max_gcc = max_gcc_of(host, toolkit);
      find_host_compiler(host, toolchain);
    }
    facts.toolchains.push_back(std::move(toolchain));
  }
}

void compare_extension_builds(ApplicationFacts& facts) {
  const ToolchainFacts* build = nullptr;
  for (const auto& toolchain : facts.toolchains)
    if (toolchain.on_path && toolchain.version) build = &toolchain;
  if (!build) return;
  const auto nvcc = Version::parse(*build->version);
  for (const auto& framework : facts.frameworks) {
    const auto cuda = framework.cuda ? Version::parse(*framework.cuda) : std::nullopt;
    if (!cuda || !nvcc) continue;
    ExtensionBuild entry{framework_label(framework), *framework.cuda,
                         build->nvcc, *build->version, "same"};
    if (cuda->major() != nvcc->major()) entry.relation = "major-differs";
    else if (cuda->minor() != nvcc->minor()) entry.relation = "minor-differs";
    facts.extension_builds.push_back(std::move(entry));
  }
}

// torch pins its NVIDIA wheels exactly (nvidia-cudnn-cu12==9.1.0.70); an
// older one beside it (installed by hand, or by another package's pins)
// fails at first use: "cuDNN version incompatibility: PyTorch was compiled
// against (9, 1, 0) but found runtime version (8, 9, 2)".
void compare_wheel_pins(const FoundFramework& framework, const InstalledPackages& packages, ApplicationFacts& facts) {
  if (framework.pins.empty()) return;
  std::map<std::string, std::string> installed;
  for (const auto& [name, version] : packages) installed.emplace(normalized_package_name(name), version);
  const std::string label = framework_label(framework.facts);
  for (const auto& [package, required] : framework.pins) {
    if (!package.starts_with("nvidia_") || facts.wheel_pins.size() >= 128) continue;
    WheelPin pin{.framework = label, .package = package, .required = required, .relation = "missing"};
    if (const auto found = installed.find(package); found != installed.end()) {
      pin.installed = found->second;
      pin.relation = pin_relation(found->second, required);
    }
    facts.wheel_pins.push_back(std::move(pin));
  }
}

// CuPy and JAX's CUDA plugins load CUDA at run time, from the NVIDIA wheels
// beside them (cupy-cuda12x[ctk], jax[cuda12]) or from a toolkit the loader
// finds (jax[cuda12-local]): without either, the first GPU call fails.
void check_package_runtimes(Host& host, const LoaderConfig& config, ApplicationFacts& facts) {
  std::optional<LoadSimulation> simulation;
  for (const auto& package : facts.gpu_packages) {
    const auto name = to_lower(package.name);
    const bool loads_cuda = name.starts_with("cupy") || (name.starts_with("jax") && (name.ends_with("plugin") || name.ends_with("pjrt")));
    if (!loads_cuda || !package.cuda_major || facts.package_runtimes.size() >= 64) continue;
    const auto major = *package.cuda_major;
    PackageRuntime runtime{package.name, package.version,
                           major == 11 ? std::string("libcudart.so.11.0") : "libcudart.so." + std::to_string(major), major};
    for (const auto& dir : {package.site + "/nvidia/cuda_runtime/lib", package.site + "/nvidia/cu" + std::to_string(major) + "/lib"})
      if (!runtime.found && host.stat(dir + "/" + runtime.runtime)) {
        runtime.found = true;
        runtime.found_at = printable(dir + "/" + runtime.runtime, 300);
      }
    if (!runtime.found) {
      if (!simulation) {
        simulation.emplace(host, config);
        simulation->load_plain_program();
      }
      const auto resolution = simulation->dlopen(runtime.runtime, k_plain_program);
      if (resolution.path && !resolution.fatal) {
        runtime.found = true;
        runtime.found_at = printable(*resolution.path, 300);
      }
    }
    facts.package_runtimes.push_back(std::move(runtime));
  }
}

// Per framework, what a user asks first: its CUDA build, whether each GPU
// here has code in it, and whether its CUDA libraries are found.
// "torch 2.5.1+cu124 (CUDA 12.4, 7 architectures, SASS for the GPU, 4 CUDA libraries found)"
std::string summary_of(const ApplicationFacts& facts) {
  std::string summary;
  std::size_t shown = 0;
  for (const auto& framework : facts.frameworks) {
    if (shown == 3) {
      summary += " and " + std::to_string(facts.frameworks.size() - shown) + " more";
      break;
    }
    const std::string label = framework_label(framework);
    std::vector<std::string> parts;
    if (framework.cpu_only) parts.emplace_back("CPU-only build");
    else if (framework.cuda) parts.push_back("CUDA " + *framework.cuda);
    if (framework.sass) parts.push_back(std::to_string(framework.sass->size()) + " architecture" + (framework.sass->size() == 1 ? "" : "s"));
    std::size_t gpus = 0, sass = 0, jit = 0, without = 0;
    for (const auto& check : facts.checks) {
      if (check.framework != label) continue;
      ++gpus;
      if (check.kernel_image == KernelImage::sass) ++sass;
      else if (check.kernel_image == KernelImage::ptx_jit) ++jit;
      else if (check.kernel_image != KernelImage::unknown) ++without;
    }
    const auto of_gpus = [&](std::size_t count) { return gpus == 1 ? std::string("the GPU") : std::to_string(count) + " of " + std::to_string(gpus) + " GPUs"; };
    if (without) parts.push_back("no code for " + of_gpus(without));
    else if (jit) parts.push_back("PTX JIT on " + of_gpus(jit));
    else if (gpus && sass == gpus) parts.push_back(gpus == 1 ? "SASS for the GPU" : "SASS for all " + std::to_string(gpus) + " GPUs");
    std::size_t libraries = 0, missing = 0;
    for (const auto& library : facts.libraries)
      if (library.framework == label) ++libraries, missing += library.found ? 0 : 1;
    if (libraries)
      parts.push_back(std::to_string(libraries) + " CUDA librar" + (libraries == 1 ? "y" : "ies") +
                      (missing ? " (" + std::to_string(missing) + " not found)" : std::string(" found")));
    std::string joined;
    for (const auto& part : parts) joined += (joined.empty() ? "" : ", ") + part;
    summary += (summary.empty() ? "" : "; ") + label + (joined.empty() ? std::string() : " (" + joined + ")");
    ++shown;
  }
  return summary;
}

}  // namespace

GpuCodeCheck check_gpu_code(const FrameworkFacts& framework, const FatbinContents& code, const std::string& gpu, int cc,
                            const std::optional<std::string>& driver_cuda, const CudaTables& tables) {
  GpuCodeCheck check;
  check.framework = framework_label(framework);
  check.version = framework.version;
  check.gpu = gpu;
  check.compute_capability = compute_capability_of(cc);
  check.sass = sass_list(code);
  check.ptx = ptx_list(code);
  check.driver_cuda = driver_cuda;
  for (int arch : code.sass)
    if (within_major(arch, cc)) return check.kernel_image = KernelImage::sass, check;
  for (int arch : code.sass_family)
    if (within_major(arch, cc)) return check.kernel_image = KernelImage::sass, check;
  if (code.sass_specific.count(cc)) return check.kernel_image = KernelImage::sass, check;
  // PTX the driver can compile for this GPU, newest architecture first: the
  // one the CUDA runtime picks. Its ISA decides whether this driver knows it.
  std::map<int, std::string> usable;
  for (const auto& [arch, isa] : code.ptx)
    if (arch <= cc) usable[arch] = isa;
  for (const auto& [arch, isa] : code.ptx_family)
    if (within_major(arch, cc)) usable[arch] = isa;
  if (const auto found = code.ptx_specific.find(cc); found != code.ptx_specific.end()) usable[cc] = found->second;
  if (usable.empty()) return check.kernel_image = KernelImage::none, check;
  const auto& [arch, isa_text] = *usable.rbegin();
  const auto isa = Version::parse(isa_text);
  // PTX listed without its ISA (a build info's compute_90) came with the framework's own CUDA.
  const auto needs = isa ? tables.cuda_for_ptx_isa(*isa) : framework.cuda ? Version::parse(*framework.cuda) : std::nullopt;
  const auto driver = driver_cuda ? Version::parse(*driver_cuda) : std::nullopt;
  if (needs && driver && *driver < *needs) {
    check.kernel_image = KernelImage::ptx_needs_newer_driver;
    check.ptx_needs_cuda = needs->text();
    return check;
  }
  check.kernel_image = KernelImage::ptx_jit;
  return check;
}

Probed<ApplicationFacts> probe_application(ProbeContext& context) {
  Probed<ApplicationFacts> layer;
  auto& facts = layer.facts;
  // --target files: their own GPU code.
  for (const auto& target : context.options.targets) {
    facts.examined.push_back(printable(target, 300));
    FrameworkFacts framework;
    framework.name = printable(base_name(target), 120);
    framework.path = printable(target, 300);
    read_gpu_code(context, framework, target, {}, facts);
    resolve_framework_libraries(context.host, host_loader_config(context), {framework.name, target, {}, {}, {}, {}, {}}, facts.libraries);
    facts.frameworks.push_back(std::move(framework));
  }
  // The Python environments an application would run in.
  if (context.options.targets.empty()) {
    // A site directory may hold 100,000 entries: stat it, and list it once.
    Environments environments;
    for (const auto& site : python_site_dirs(context.host))
      if (const auto info = context.host.stat(site); info && info->type == FileType::directory)
        environments.emplace_back(site, installed_packages(context.host, site));
    for (const auto& [site, installed] : environments) {
      facts.examined.push_back(printable(site, 300));
      for (const auto& [name, version] : installed) {
        // Triton (not tritonclient, the inference server's client): torch.compile's and vLLM's GPU compiler.
        const auto normal = normalized_package_name(name);
        if ((normal == "triton" || normal == "pytorch_triton") && facts.triton.size() < 8)
          facts.triton.push_back(check_triton(context, version, site));
        if (normal == "triton" && facts.gpu_packages.size() < 256) facts.gpu_packages.push_back({name, version, printable(site, 300), std::nullopt});
        for (const char* prefix : k_gpu_package_prefixes)
          if (normal.starts_with(prefix)) {
            if (facts.gpu_packages.size() < 256) {
              const auto major = package_cuda_major(name);
              facts.gpu_packages.push_back({name, version, printable(site, 300),
                                            major ? std::optional<std::int64_t>(*major) : std::nullopt});
            }
            break;
          }
      }
      for (auto& found : find_python_frameworks(context.host, site, installed)) {
        auto& framework = found.facts;
        if (!framework.cpu_only) {
          read_gpu_code(context, framework, found.gpu_code, found.build_archs, facts);
          if (!found.loads_through.empty())
            resolve_framework_libraries(context.host, host_loader_config(context),
                                        {framework_label(framework), found.loads_through, found.dlopens, found.preloads,
                                         found.built_against, site, found.install_hint},
                                        facts.libraries);
          judge_against_driver(context, framework);
        }
        compare_wheel_pins(found, installed, facts);
        facts.frameworks.push_back(std::move(framework));
      }
      for (auto& overlap : overlapping_wheels(context.host, site, installed)) facts.wheel_overlaps.push_back(std::move(overlap));
    }
    // Across sites: a venv that sees the system's site-packages imports torch or jaxlib from there.
    facts.torch_pins = torch_pins(context.host, environments);
    auto jax = jax_checks(context.host, environments);
    facts.jax_plugins = std::move(jax.plugins);
    facts.jaxlib_ranges = std::move(jax.jaxlib_ranges);
  }
  check_package_runtimes(context.host, host_loader_config(context), facts);
  find_toolchains(context.host, facts);
  compare_extension_builds(facts);
  layer.source("toolchains", "PATH, CUDA_HOME, CUDA_PATH, /usr/local/cuda*/bin; version.json or dist-info");
  layer.source("frameworks", "torch/version.py, tensorflow/python/platform/build_info.py, onnxruntime/capi/build_and_package_info.py, "
                             "dist-info versions; the .nv_fatbin of each framework's GPU library and of --target files");
  layer.source("jax_plugins", "dist-info versions of jaxlib and jax_cudaNN_plugin; jax/version.py (_minimum_jaxlib_version)");
  layer.source("torch_pins", "METADATA of torchvision, torchaudio, torchtext, xformers, vllm, torch_tensorrt");
  layer.source("gpu_packages", "*.dist-info in Python site directories");
  layer.source("libraries", "the loader simulation from each framework's library: its RUNPATH, LD_LIBRARY_PATH, /etc/ld.so.cache");
  if (facts.frameworks.empty() && !facts.package_runtimes.empty()) {
    layer.status = Status::ok;
    const auto& first = facts.package_runtimes.front();
    layer.summary = first.package + " " + first.version + " (CUDA " + std::to_string(first.cuda_major) + ")" +
                    (facts.package_runtimes.size() > 1 ? " and " + std::to_string(facts.package_runtimes.size() - 1) + " more" : "");
    return layer;
  }
  if (facts.frameworks.empty()) {
    layer.summary = context.options.targets.empty() ? "no framework found in the Python environments (--target FILE checks a program)"
                                                    : "no GPU code in the targets";
    return layer;
  }
  layer.status = Status::ok;
  layer.summary = summary_of(facts);
  return layer;
}

}  // namespace gd
