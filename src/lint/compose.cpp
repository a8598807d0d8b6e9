#include "lint/compose.h"

#include "formats/bounded_yaml.h"
#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace gd {

namespace {

constexpr std::size_t k_max_services = 1000;
constexpr std::size_t k_max_list = 1000;

std::size_t line_of(const YAML::Node& node) { return static_cast<std::size_t>(std::max(node.Mark().line, 0)) + 1; }

// YAML::Node() is a defined null node; "not there" must be undefined.
YAML::Node absent() { return YAML::Node(YAML::NodeType::Undefined); }

// One lookup visits at most this many maps: merge lists that name the same
// anchors again at every level fan out to billions of paths in a 1 KB file.
constexpr int k_max_merge_visits = 256;

YAML::Node field_within(const YAML::Node& node, const char* key, int depth, int& visits) {
  if (!node.IsMap() || depth > 8 || ++visits > k_max_merge_visits) return absent();
  if (auto own = node[key]) return own;
  const auto merged = node["<<"];
  if (merged && merged.IsMap()) return field_within(merged, key, depth + 1, visits);
  if (merged && merged.IsSequence())
    for (const auto& each : merged)
      if (auto found = field_within(each, key, depth + 1, visits)) return found;
  return absent();
}

// The node's own key, else the same key in what it merges (<<: *a or <<: [*a, *b]).
YAML::Node field(const YAML::Node& node, const char* key) {
  int visits = 0;
  return field_within(node, key, 0, visits);
}

std::optional<std::string> scalar(const YAML::Node& node) {
  if (!node || !node.IsScalar()) return std::nullopt;
  return node.Scalar();
}

std::vector<std::string> scalars(const YAML::Node& node) {
  std::vector<std::string> out;
  if (node && node.IsSequence())
    for (const auto& item : node)
      if (item.IsScalar() && out.size() < k_max_list) out.push_back(item.Scalar());
  return out;
}

// What its line holds before a node: "      - " before a list item's key,
// "    " before a map key; a corrected line starts the same way.
std::string prefix_of(std::string_view text, const YAML::Node& node) {
  const auto position = std::min(static_cast<std::size_t>(std::max(node.Mark().pos, 0)), text.size());
  const auto newline = position == 0 ? std::string_view::npos : text.rfind('\n', position - 1);
  const std::size_t from = newline == std::string_view::npos ? 0 : newline + 1;
  auto prefix = text.substr(from, position - from);
  if (prefix.find_first_not_of(" -") != std::string_view::npos) prefix = prefix.substr(0, prefix.find_first_not_of(' '));
  return std::string(prefix);
}

ComposeDeviceRequest read_request(std::string_view text, const YAML::Node& entry) {
  ComposeDeviceRequest request;
  request.line = line_of(entry);
  request.driver = scalar(field(entry, "driver"));
  request.count = scalar(field(entry, "count"));
  request.device_ids = scalars(field(entry, "device_ids"));
  if (const auto capabilities = field(entry, "capabilities")) {
    request.capabilities = scalars(capabilities);
    request.capabilities_line = line_of(capabilities);
    for (const auto& pair : entry)  // the key's own place, when the entry itself holds it (not a merge)
      if (scalar(pair.first) == std::optional<std::string>("capabilities")) {
        request.capabilities_line = line_of(pair.first);
        request.capabilities_indent = prefix_of(text, pair.first);
      }
  }
  return request;
}

void read_environment(std::string_view text, const YAML::Node& environment, ComposeService& service) {
  if (environment.IsMap()) {
    for (const auto& pair : environment) {
      if (service.environment.size() >= k_max_list) break;
      const auto key = scalar(pair.first);
      if (!key) continue;
      service.environment.push_back({*key, scalar(pair.second).value_or(""), line_of(pair.first), false, prefix_of(text, pair.first)});
    }
  } else if (environment.IsSequence()) {
    for (const auto& item : environment) {
      if (service.environment.size() >= k_max_list) break;
      const auto entry = scalar(item);
      if (!entry) continue;
      const auto equals = entry->find('=');
      service.environment.push_back({entry->substr(0, equals), equals == std::string::npos ? "" : entry->substr(equals + 1),
                                     line_of(item), true, prefix_of(text, item)});
    }
  }
}

ComposeService read_service(std::string_view text, const std::string& name, const YAML::Node& node) {
  ComposeService service;
  service.name = name;
  service.line = line_of(node);
  if (const auto deploy = field(node, "deploy"))
    if (const auto resources = field(deploy, "resources"))
      if (const auto reservations = field(resources, "reservations"))
        if (const auto devices = field(reservations, "devices"); devices && devices.IsSequence())
          for (const auto& entry : devices)
            if (entry.IsMap() && service.device_requests.size() < k_max_list) service.device_requests.push_back(read_request(text, entry));
  if (const auto runtime = field(node, "runtime")) {
    service.runtime = scalar(runtime);
    service.runtime_line = line_of(runtime);
  }
  if (const auto gpus = field(node, "gpus")) service.gpus_line = line_of(gpus);
  if (const auto devices = field(node, "devices"); devices && devices.IsSequence())
    for (const auto& item : devices) {
      if (service.devices.size() >= k_max_list) break;
      // Short form "/dev/nvidia0:/dev/nvidia0:rwm", long form {source: ..., target: ...}.
      auto source = item.IsMap() ? scalar(field(item, "source")) : scalar(item);
      if (source) service.devices.emplace_back(source->substr(0, source->find(':')), line_of(item));
    }
  if (const auto environment = field(node, "environment")) read_environment(text, environment, service);
  return service;
}

}  // namespace

ComposeFile parse_compose(std::string_view text) {
  ComposeFile file;
  if (text.size() > k_max_compose) {
    file.problems.push_back("larger than " + std::to_string(k_max_compose >> 10) + " KiB, more than any compose file; not read");
    return file;
  }
  if (flow_nesting(text) > k_max_compose_nesting) {
    file.problems.push_back("flow collections nested more than " + std::to_string(k_max_compose_nesting) + " deep; not read");
    return file;
  }
  auto loaded = load_bounded_yaml(text, {.max_nodes = k_max_compose_nodes, .max_nesting = k_max_compose_nesting});
  if (!loaded) {
    file.problems.push_back(loaded.error() + "; not read");
    return file;
  }
  const YAML::Node document = *loaded;
  try {
    const YAML::Node& top = document;  // const: reading a missing key must not add it
    const auto services = top.IsMap() ? top["services"] : absent();
    if (!services || !services.IsMap()) {
      file.problems.push_back("no services: section (is this a compose file?)");
      return file;
    }
    for (const auto& pair : services) {
      if (file.services.size() >= k_max_services) {
        file.problems.push_back("more than " + std::to_string(k_max_services) + " services; the rest not read");
        break;
      }
      const auto name = scalar(pair.first);
      if (name && pair.second.IsMap()) file.services.push_back(read_service(text, *name, pair.second));
    }
  } catch (const YAML::Exception& error) {
    file.problems.push_back("could not be read: " + error.msg);
  }
  return file;
}

}  // namespace gd
