#include "probes/nvidia_env.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace gd {
namespace json = boost::json;

namespace {

constexpr const char* k_capabilities[] = {"compute", "compat32", "graphics", "utility", "video", "display", "ngx"};
constexpr std::size_t k_max_entries = 64;  // more than any machine has GPUs; the rest is junk
constexpr std::size_t k_max_invalid = 8;   // enough to show what is wrong without drowning the report

// Adds a rejected entry once; past the cap, a single marker says there were more.
void add_invalid(json::array& invalid, std::string_view entry) {
  const json::string text(printable(entry, 60));
  for (const auto& known : invalid)
    if (known.as_string() == text) return;
  if (invalid.size() < k_max_invalid) invalid.push_back(text);
  else if (invalid.size() == k_max_invalid) invalid.push_back(json::string("(more entries not shown)"));
}

bool all_of_chars(std::string_view text, const char* allowed) {
  return !text.empty() && text.find_first_not_of(allowed) == std::string_view::npos;
}

// The selector forms nvidia-container-cli accepts (src/cli/common.c), plus CDI names.
std::string selector_kind(std::string_view entry) {
  const std::string low = to_lower(entry);
  if (all_of_chars(entry, "0123456789")) return "index";
  if (low.starts_with("gpu-") && entry.size() == 40) return "gpu-uuid";
  if (low.starts_with("mig-")) return "mig-uuid";
  const auto colon = entry.find(':');
  if (colon != std::string_view::npos && all_of_chars(entry.substr(0, colon), "0123456789") &&
      all_of_chars(entry.substr(colon + 1), "0123456789"))
    return "mig-index";
  if (all_of_chars(low, "0123456789abcdef:.") && std::count(entry.begin(), entry.end(), ':') >= 1 &&
      entry.find('.') != std::string_view::npos)
    return "bus-id";
  if (entry.find('/') != std::string_view::npos && entry.find('=') != std::string_view::npos) return "cdi";
  return "unknown";
}

}  // namespace

json::object parse_visible_devices(const std::optional<std::string>& value) {
  json::object result{{"set", value.has_value()}};
  if (!value) {
    result["mode"] = "unset";
    return result;
  }
  result["value"] = printable(*value, 200);
  const std::string_view text = trim(*value);
  if (text.empty()) {
    result["mode"] = "empty";
    return result;
  }
  if (text == k_volume_mount_devices) {  // the devices are the entries mounted below it
    result["mode"] = "volume-mounts";
    return result;
  }
  json::array entries, invalid;
  std::string mode = "list";
  for (auto raw : split(text, ',')) {
    const auto entry = trim(raw);
    if (entry.empty()) continue;
    const std::string low = to_lower(entry);
    if (low == "void") mode = "void";
    if (mode != "void" && low == "all") mode = "all";
    if (mode != "void" && mode != "all" && low == "none") mode = "none";
    if (low == "void" || low == "all" || low == "none") continue;
    const std::string kind = selector_kind(entry);
    if (kind == "unknown") add_invalid(invalid, entry);
    else if (entries.size() < k_max_entries) entries.push_back(json::object{{"value", printable(entry, 60)}, {"kind", kind}});
  }
  result["mode"] = mode;
  result["entries"] = std::move(entries);
  result["invalid"] = std::move(invalid);
  return result;
}

json::object parse_driver_capabilities(const std::optional<std::string>& value) {
  json::object result{{"set", value.has_value()}};
  if (value) result["value"] = printable(*value, 200);
  json::array effective, invalid;
  auto add = [&effective](std::string_view capability) {
    for (const auto& known : effective)
      if (known.as_string() == capability) return;
    effective.push_back(json::string(capability));
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
      for (const char* known : k_capabilities) add(known);
      continue;
    }
    bool known = false;
    for (const char* name : k_capabilities) known = known || capability == name;
    if (known) add(capability);
    else add_invalid(invalid, capability);
  }
  result["effective"] = std::move(effective);
  result["invalid"] = std::move(invalid);
  return result;
}

json::object expected_injection(const json::array& capabilities) {
  auto has = [&capabilities](std::string_view name) {
    for (const auto& capability : capabilities)
      if (capability.as_string() == name) return true;
    return false;
  };
  json::array nodes{"/dev/nvidiactl", "/dev/nvidiaN (one per visible GPU)"};
  json::array libraries, binaries;
  if (has("compute") || has("video")) {
    nodes.push_back("/dev/nvidia-uvm");
    nodes.push_back("/dev/nvidia-uvm-tools");
    for (const char* lib : {"libcuda.so.1", "libnvidia-ptxjitcompiler.so.1", "libnvidia-nvvm.so.4"}) libraries.push_back(lib);
  }
  if (has("utility")) {
    libraries.push_back("libnvidia-ml.so.1");
    binaries.push_back("nvidia-smi");
  }
  if (has("display")) nodes.push_back("/dev/nvidia-modeset");
  return {{"device_nodes", std::move(nodes)}, {"libraries", std::move(libraries)}, {"binaries", std::move(binaries)}};
}

}  // namespace gd
