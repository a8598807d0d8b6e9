#include "probes/application_probe.h"

#include "probes/framework_driver.h"
#include "probes/framework_libraries.h"
#include "probes/gpu_code.h"
#include "probes/install_hints.h"
#include "probes/library_files.h"
#include "probes/python_envs.h"
#include "probes/python_frameworks.h"
#include "probes/toolchains.h"
#include "probes/triton_needs.h"
#include "probes/wheel_checks.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

// Packages whose presence and version a user asking "will it run" wants to see.
// Matched against normalised names (nvidia-cudnn-cu12 is nvidia_cudnn_cu12).
constexpr const char* k_gpu_package_prefixes[] = {"nvidia_", "jax_cuda", "jaxlib", "cupy", "tensorflow", "vllm", "onnxruntime_gpu",
                                                  "numba", "cuda_python", "cuda_bindings", "torch", "pytorch_triton"};

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
    resolve_framework_libraries(context.host, context.conda_records, host_loader_config(context), {framework.name, target, {}, {}, {}, {}, {}, {}, {}}, facts.libraries);
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
            resolve_framework_libraries(context.host, context.conda_records, host_loader_config(context),
                                        {framework_label(framework), found.loads_through, found.dlopens, found.preloads,
                                         found.built_against, site, libraries_install_hint(context.tables.cuda, framework), found.modules,
                                         found.loads_first},
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
  layer.source(&ApplicationFacts::toolchains, "PATH, CUDA_HOME, CUDA_PATH, /usr/local/cuda*/bin; version.json or dist-info");
  layer.source(&ApplicationFacts::frameworks, "torch/version.py, tensorflow/python/platform/build_info.py, onnxruntime/capi/build_and_package_info.py, "
                             "dist-info versions; the .nv_fatbin of each framework's GPU library and of --target files");
  layer.source(&ApplicationFacts::jax_plugins, "dist-info versions of jaxlib and jax_cudaNN_plugin; jax/version.py (_minimum_jaxlib_version)");
  layer.source(&ApplicationFacts::torch_pins, "METADATA of torchvision, torchaudio, torchtext, xformers, vllm, torch_tensorrt");
  layer.source(&ApplicationFacts::gpu_packages, "*.dist-info in Python site directories");
  layer.source(&ApplicationFacts::libraries, "the loader simulation from each framework's library: its RUNPATH, LD_LIBRARY_PATH, /etc/ld.so.cache");
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
