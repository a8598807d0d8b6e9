#include "formats/cdi_spec.h"

#include "formats/bounded_yaml.h"
#include "util/text.h"

namespace gd {

namespace {

constexpr std::size_t k_max_nesting = 32;
constexpr std::size_t k_max_devices = 256;
constexpr std::size_t k_max_paths = 4096;
// nvidia-ctk's spec for eight GPUs with every MIG profile has a few thousand nodes.
constexpr std::size_t k_max_nodes = 100'000;
// Entries walked in all: aliases let every device walk one long list again.
constexpr std::size_t k_max_walked = 200'000;

// A key's scalar; nothing where node is no map (yaml-cpp throws on a scalar's key).
std::string scalar(const YAML::Node& node, const char* key) {
  if (!node.IsMap()) return {};
  const auto value = node[key];
  return value && value.IsScalar() ? printable(value.Scalar(), 300) : std::string();
}

// One containerEdits block: the spec's own (common), or a device's.
void read_edits(const YAML::Node& edits, CdiSpec& spec, bool common, std::size_t& walked) {
  if (!edits || !edits.IsMap()) return;
  const auto walk_on = [&] {
    if (++walked > k_max_walked) spec.truncated = true;
    return !spec.truncated;
  };
  auto add = [&spec](std::string path) {
    if (path.empty()) return;
    if (spec.host_paths.size() >= k_max_paths) spec.truncated = true;
    else spec.host_paths.push_back(std::move(path));
  };
  // Every loop stops at the caps: aliases make one long list every device's.
  if (const auto mounts = edits["mounts"]; mounts && mounts.IsSequence())
    for (const auto& mount : mounts) {
      if (!walk_on()) return;
      add(scalar(mount, "hostPath"));
      if (auto inside = scalar(mount, "containerPath"); common && !inside.empty()) {
        if (spec.common_mounts.size() >= k_max_paths) spec.truncated = true;
        else spec.common_mounts.push_back(std::move(inside));
      }
    }
  if (const auto nodes = edits["deviceNodes"]; nodes && nodes.IsSequence())
    for (const auto& node : nodes) {
      if (!walk_on()) return;
      const auto host_path = scalar(node, "hostPath");
      const auto path = host_path.empty() ? scalar(node, "path") : host_path;
      add(path);
      const auto major = parse_int(scalar(node, "major")), minor = parse_int(scalar(node, "minor"));
      if (major && !path.empty()) {
        if (spec.pinned_nodes.size() >= k_max_paths) spec.truncated = true;
        else spec.pinned_nodes.push_back({path, *major, minor});
      }
    }
  if (const auto hooks = edits["hooks"]; hooks && hooks.IsSequence())
    for (const auto& hook : hooks) {
      if (!walk_on()) return;
      add(scalar(hook, "path"));
    }
}

}  // namespace

Checked<CdiSpec> parse_cdi_spec(std::string_view text) {
  if (text.size() > k_max_cdi_spec) return problem("larger than the 4 MiB gpudoctor reads");
  if (flow_nesting(text) > k_max_nesting) return problem("nested deeper than any CDI spec");
  auto loaded = load_bounded_yaml(text, {.max_nodes = k_max_nodes, .max_nesting = k_max_nesting});
  if (!loaded) return problem(loaded.error().starts_with("more than") ? loaded.error() + ", more than any CDI spec" : loaded.error());
  const YAML::Node root = *loaded;
  if (!root.IsMap()) return problem("not a CDI spec (no cdiVersion, kind and devices)");
  CdiSpec spec;
  spec.cdi_version = scalar(root, "cdiVersion");
  spec.kind = scalar(root, "kind");
  if (spec.cdi_version.empty() || spec.kind.empty()) return problem("not a CDI spec (no cdiVersion or kind)");
  std::size_t walked = 0;
  read_edits(root["containerEdits"], spec, true, walked);
  if (const auto devices = root["devices"]; devices && devices.IsSequence())
    for (const auto& device : devices) {
      if (spec.devices.size() >= k_max_devices || spec.truncated) {
        spec.truncated = true;
        break;
      }
      spec.devices.push_back(scalar(device, "name"));
      if (device.IsMap()) read_edits(device["containerEdits"], spec, false, walked);
    }
  return spec;
}

std::string cdi_spec_yaml_kind(std::string_view text) {
  for (auto line : lines(text)) {
    if (!line.starts_with("kind:")) continue;
    auto value = trim(line.substr(5));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    return std::string(value);
  }
  return {};
}

}  // namespace gd
