#include "probes/nvidia_env.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace gd {

namespace {

constexpr std::size_t k_max_entries = 64;  // more than any machine has GPUs; the rest is junk
constexpr std::size_t k_max_invalid = 8;   // enough to show what is wrong without drowning the report

// Adds a rejected entry once; past the cap, a single marker says there were more.
void add_invalid(std::vector<std::string>& invalid, std::string_view entry) {
  const std::string text = printable(entry, 60);
  if (std::find(invalid.begin(), invalid.end(), text) != invalid.end()) return;
  if (invalid.size() < k_max_invalid) invalid.push_back(text);
  else if (invalid.size() == k_max_invalid) invalid.emplace_back("(more entries not shown)");
}

bool all_of_chars(std::string_view text, const char* allowed) {
  return !text.empty() && text.find_first_not_of(allowed) == std::string_view::npos;
}

// The selector forms nvidia-container-cli accepts (src/cli/common.c), plus CDI names.
std::optional<SelectorKind> selector_kind(std::string_view entry) {
  const std::string low = to_lower(entry);
  if (all_of_chars(entry, "0123456789")) return SelectorKind::index;
  if (low.starts_with("gpu-") && entry.size() == 40) return SelectorKind::gpu_uuid;
  if (low.starts_with("mig-")) return SelectorKind::mig_uuid;
  const auto colon = entry.find(':');
  if (colon != std::string_view::npos && all_of_chars(entry.substr(0, colon), "0123456789") &&
      all_of_chars(entry.substr(colon + 1), "0123456789"))
    return SelectorKind::mig_index;
  if (all_of_chars(low, "0123456789abcdef:.") && std::count(entry.begin(), entry.end(), ':') >= 1 &&
      entry.find('.') != std::string_view::npos)
    return SelectorKind::bus_id;
  if (entry.find('/') != std::string_view::npos && entry.find('=') != std::string_view::npos) return SelectorKind::cdi;
  return std::nullopt;
}

}  // namespace

VisibleDevices parse_visible_devices(const std::optional<std::string>& value) {
  VisibleDevices result{.set = value.has_value()};
  if (!value) return result;
  result.value = printable(*value, 200);
  const std::string_view text = trim(*value);
  if (text.empty()) {
    result.mode = VisibleMode::empty;
    return result;
  }
  if (text == k_volume_mount_devices) {  // the devices are the entries mounted below it
    result.mode = VisibleMode::volume_mounts;
    return result;
  }
  std::vector<DeviceSelector> entries;
  std::vector<std::string> invalid;
  VisibleMode mode = VisibleMode::list;
  for (auto raw : split(text, ',')) {
    const auto entry = trim(raw);
    if (entry.empty()) continue;
    const std::string low = to_lower(entry);
    if (low == "void") mode = VisibleMode::void_;
    if (mode != VisibleMode::void_ && low == "all") mode = VisibleMode::all;
    if (mode == VisibleMode::list && low == "none") mode = VisibleMode::none;
    if (low == "void" || low == "all" || low == "none") continue;
    const auto kind = selector_kind(entry);
    if (!kind) add_invalid(invalid, entry);
    else if (entries.size() < k_max_entries) entries.push_back({.value = printable(entry, 60), .kind = *kind});
  }
  result.mode = mode;
  result.entries = std::move(entries);
  result.invalid = std::move(invalid);
  return result;
}

DriverCapabilities parse_driver_capabilities(const std::optional<std::string>& value) {
  DriverCapabilities result{.set = value.has_value()};
  if (value) result.value = printable(*value, 200);
  auto add = [&result](std::string_view capability) {
    if (!result.has(capability)) result.effective.emplace_back(capability);
  };
  const std::string_view text = value ? trim(*value) : std::string_view();
  if (text.empty()) {
    add("utility");
    add("compute");
  }
  for (auto raw : split(text, ',')) {
    const std::string capability = to_lower(trim(raw));
    if (capability.empty()) continue;
    if (capability == "all") {
      for (const char* known : enum_names<DriverCapability>()) add(known);
      continue;
    }
    if (enum_from_name<DriverCapability>(capability)) add(capability);
    else add_invalid(result.invalid, capability);
  }
  return result;
}

ExpectedInjection expected_injection(const DriverCapabilities& capabilities) {
  ExpectedInjection expected{.device_nodes = {"/dev/nvidiactl", "/dev/nvidiaN (one per visible GPU)"}};
  if (capabilities.has("compute") || capabilities.has("video")) {
    expected.device_nodes.insert(expected.device_nodes.end(), {"/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"});
    expected.libraries = {"libcuda.so.1", "libnvidia-ptxjitcompiler.so.1", "libnvidia-nvvm.so.4"};
  }
  if (capabilities.has("utility")) {
    expected.libraries.emplace_back("libnvidia-ml.so.1");
    expected.binaries.emplace_back("nvidia-smi");
  }
  if (capabilities.has("display")) expected.device_nodes.emplace_back("/dev/nvidia-modeset");
  return expected;
}

}  // namespace gd
