#include "probes/install_hints.h"

#include "probes/python_envs.h"

#include <algorithm>

namespace gd {

std::map<std::string, std::string> install_values(const FrameworkFacts& framework) {
  const std::string version = framework.version ? public_version(*framework.version) : "";
  return {{"pin", version.empty() ? "" : "==" + version},
          {"cuda", framework.cuda.value_or("")},
          {"cudnn", framework.cudnn.value_or("")}};
}

std::string torch_index_of(const std::optional<std::string>& cuda) {
  if (!cuda) return "cuXYZ";
  std::string digits = *cuda;
  std::erase(digits, '.');
  return "cu" + digits;
}

std::string libraries_install_hint(const CudaTables& tables, const FrameworkFacts& framework) {
  auto values = install_values(framework);
  values["torch_install"] = tables.torch_install_command("torch" + values["pin"], torch_index_of(framework.cuda));
  return tables.framework_install(framework.name, "libraries", values);
}

}  // namespace gd
