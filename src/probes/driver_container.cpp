#include "probes/driver_container.h"

#include "probes/library_files.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

// Where the driver container's distribution puts libcuda (Ubuntu, RHEL and
// its derivatives, aarch64 Ubuntu), relative to its root.
constexpr const char* k_container_lib_dirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/aarch64-linux-gnu"};
constexpr const char* k_run_dir = "/run/nvidia";

}  // namespace

std::optional<DriverContainerFacts> find_driver_container(Host& host) {
  DriverContainerFacts facts;
  auto stat = host.stat(facts.root);
  if (!stat || stat->type != FileType::directory) return std::nullopt;
  for (const char* dir : k_container_lib_dirs) {
    const std::string where = facts.root + dir;
    auto names = host.list_dir(where);
    if (!names) continue;
    std::sort(names->begin(), names->end());
    for (const auto& name : *names) {
      const auto version = version_from_file_name(where + "/" + name, "libcuda.so");
      if (!version) continue;  // libcuda.so.1 is the link
      facts.libcuda = printable(where + "/" + name, 300);
      facts.version = printable(*version, 40);
      facts.state = DriverContainerState::running;
      break;
    }
    if (facts.libcuda) break;
  }
  facts.nvidia_smi = host.exists(facts.root + "/usr/bin/nvidia-smi");
  facts.pid_file = host.exists(join_path(k_run_dir, "nvidia-driver.pid"));
  if (auto ready = host.list_dir(join_path(k_run_dir, "validations"))) {
    std::sort(ready->begin(), ready->end());
    for (const auto& name : *ready)
      if (facts.validations.size() < 32) facts.validations.push_back(printable(name, 60));
  }
  return facts;
}

}  // namespace gd
