#include "probes/framework_driver.h"

#include "probes/gpu_code.h"
#include "probes/install_hints.h"
#include "probes/python_envs.h"
#include "util/version.h"

#include <algorithm>

namespace gd {

// Where the driver is too old, both ways out: the driver its major needs,
// and (torch) the newest build of the same torch release, from an index this
// driver runs, that carries code for every GPU here.
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
  framework.driver_cuda_major = driver->major();
  const auto& tables = context.tables.cuda;
  if (auto minimum = tables.mvc_minimum(static_cast<int>(cuda->major()))) framework.driver_needed = minimum->text();
  auto values = install_values(framework);
  values["driver_major"] = std::to_string(driver->major());
  const auto gpus = gpus_of(context);
  const auto torch = framework.version ? Version::parse(public_version(*framework.version)) : std::nullopt;
  if (framework.name == "torch" && torch) {
    auto indexes = tables.torch_release_indexes(*torch);  // by major and minor
    std::sort(indexes.rbegin(), indexes.rend());
    for (int index : indexes) {
      if (index / 10 > static_cast<int>(driver->major())) continue;
      const std::string name = "cu" + std::to_string(index);
      const auto row = std::find_if(tables.torch_indexes().begin(), tables.torch_indexes().end(), [&](const auto& r) { return r.index == name; });
      const bool carries_all = std::all_of(gpus.begin(), gpus.end(), [&](const Gpu& gpu) {
        return row == tables.torch_indexes().end() || index_carries(*row, gpu.arch);
      });
      if (!carries_all) continue;
      const std::string version = std::to_string(torch->major()) + "." + std::to_string(torch->minor()) + "." + std::to_string(torch->component(2));
      framework.alternative_build = "torch " + version + "+" + name;
      values["torch_install"] = tables.torch_install_command("torch==" + version, name);
      framework.alternative_hint = tables.framework_install(framework.name, "other_release", values);
      return;
    }
  }
  framework.alternative_hint = tables.framework_install(framework.name, "other_build", values);
}

}  // namespace gd
