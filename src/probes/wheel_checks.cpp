#include "probes/wheel_checks.h"

#include "loader/load_simulation.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <optional>

namespace gd {

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
    WheelPin pin{.framework = label, .package = package, .required = required, .relation = VersionRelation::missing};
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
// Where their own modules were read (frameworks cupy and jax), the libraries
// they load are judged one by one instead, and this summary stays out.
void check_package_runtimes(Host& host, const LoaderConfig& config, ApplicationFacts& facts) {
  std::optional<LoadSimulation> simulation;
  const auto read_as_framework = [&](const std::string& site, bool cupy) {
    return std::any_of(facts.frameworks.begin(), facts.frameworks.end(), [&](const FrameworkFacts& framework) {
      return framework.name == (cupy ? "cupy" : "jax") && framework.path && framework.path->starts_with(site + "/");
    });
  };
  for (const auto& package : facts.gpu_packages) {
    const auto name = to_lower(package.name);
    const bool cupy = name.starts_with("cupy");
    const bool loads_cuda = cupy || (name.starts_with("jax") && (name.ends_with("plugin") || name.ends_with("pjrt")));
    if (!loads_cuda || !package.cuda_major || facts.package_runtimes.size() >= 64) continue;
    if (read_as_framework(package.site, cupy)) continue;
    const auto major = *package.cuda_major;
    PackageRuntime runtime{.package = package.name,
                           .version = package.version,
                           .runtime = major == 11 ? std::string("libcudart.so.11.0") : "libcudart.so." + std::to_string(major),
                           .cuda_major = major};
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

}  // namespace gd
