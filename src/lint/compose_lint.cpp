#include "lint/compose_lint.h"

#include "util/text.h"

#include <algorithm>
#include <set>

namespace gd {

namespace {

// What Docker's NVIDIA device driver passes on as NVIDIA_DRIVER_CAPABILITIES;
// the other capabilities of a request ("gpu") only select the driver.
const std::set<std::string> k_driver_capabilities{"compute", "compat32", "graphics", "utility", "video", "display", "all"};

constexpr VariableRuleIds k_environment_rules{"compose-stubs-on-loader-path", "compose-capabilities-env-without-compute",
                                              "compose-visible-devices-none"};

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& item : items) out += (out.size() > 1 ? ", " : "") + item;
  return out + "]";
}

// Returns whether the request asks for NVIDIA GPUs at all.
bool check_request(Linter& lint, const ComposeDeviceRequest& request) {
  // CDI names its devices itself (device_ids: [nvidia.com/gpu=all]): correct as it is.
  if (request.driver && to_lower(*request.driver) == "cdi") return true;
  const bool nvidia_driver = request.driver && to_lower(*request.driver) == "nvidia";
  if (!request.capabilities) {
    if (nvidia_driver) lint.raise("compose-device-request-without-capabilities", request.line, {});
    return nvidia_driver;
  }
  const auto& capabilities = *request.capabilities;
  std::vector<std::string> named;  // the driver capabilities it names
  for (const auto& capability : capabilities)
    if (k_driver_capabilities.count(to_lower(capability))) named.push_back(to_lower(capability));
  if (!has(capabilities, "gpu")) {
    if (!nvidia_driver && named.empty()) return false;  // some other device: not ours to judge
    std::vector<std::string> fixed{"gpu"};
    fixed.insert(fixed.end(), capabilities.begin(), capabilities.end());
    lint.raise("compose-gpu-capability-missing", request.capabilities_line, {{"value", printable(flow_list(capabilities), 80)}},
               request.capabilities_indent + "capabilities: " + flow_list(fixed));
    return true;
  }
  if (!named.empty() && !has(named, "compute") && !has(named, "all")) {
    std::vector<std::string> fixed = capabilities;
    fixed.push_back("compute");
    if (!has(named, "utility")) fixed.push_back("utility");
    lint.raise("compose-capabilities-without-compute", request.capabilities_line, {{"value", printable(flow_list(capabilities), 80)}},
               request.capabilities_indent + "capabilities: " + flow_list(fixed));
  } else if (!named.empty() && !has(named, "utility") && !has(named, "all")) {
    std::vector<std::string> fixed = capabilities;
    fixed.push_back("utility");
    lint.raise("compose-capabilities-without-utility", request.capabilities_line, {{"value", printable(flow_list(capabilities), 80)}},
               request.capabilities_indent + "capabilities: " + flow_list(fixed));
  }
  if (request.count && !request.device_ids.empty())
    lint.raise("compose-count-and-device-ids", request.line, {{"value", printable(*request.count, 20)}});
  return true;
}

void check_service(Linter& lint, const ComposeService& service) {
  bool gpu_requested = service.gpus_line.has_value();
  for (const auto& request : service.device_requests) gpu_requested = check_request(lint, request) || gpu_requested;
  bool visible_devices_set = false;
  for (const auto& variable : service.environment) {
    visible_devices_set = visible_devices_set || variable.key == "NVIDIA_VISIBLE_DEVICES";
    check_gpu_variable(lint, k_environment_rules, variable.key, variable.value, variable.line,
                       [&](const std::string& key, const std::string& value) {
                         return variable.indent + (variable.list_form ? key + "=" + value : key + ": " + value);
                       });
  }
  const bool nvidia_runtime = service.runtime && to_lower(*service.runtime) == "nvidia";
  if (nvidia_runtime && !visible_devices_set && !gpu_requested)
    lint.raise("compose-runtime-nvidia-without-devices", service.runtime_line, {{"service", printable(service.name, 60)}});
  if (service.gpus_line) lint.raise("compose-service-gpus-attribute", *service.gpus_line, {{"service", printable(service.name, 60)}});
  if (!gpu_requested && !nvidia_runtime)
    for (const auto& [source, line] : service.devices)
      if (source.starts_with("/dev/nvidia")) {
        lint.raise("compose-device-nodes-by-hand", line, {{"value", printable(source, 60)}, {"service", printable(service.name, 60)}});
        break;
      }
}

}  // namespace

std::vector<std::string> compose_lint_ids() {
  return {"compose-device-request-without-capabilities", "compose-gpu-capability-missing",
          "compose-capabilities-without-compute",        "compose-capabilities-without-utility",
          "compose-count-and-device-ids",                "compose-runtime-nvidia-without-devices",
          "compose-service-gpus-attribute",              "compose-device-nodes-by-hand",
          "compose-stubs-on-loader-path",                "compose-capabilities-env-without-compute",
          "compose-visible-devices-none"};
}

std::vector<LintFinding> lint_compose(const ComposeFile& file, const RuleSet& rules) {
  Linter lint(rules);
  for (const auto& service : file.services) check_service(lint, service);
  auto findings = lint.take();
  std::stable_sort(findings.begin(), findings.end(), [](const LintFinding& a, const LintFinding& b) { return a.line < b.line; });
  return findings;
}

}  // namespace gd
