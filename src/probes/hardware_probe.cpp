#include "probes/hardware_probe.h"

#include "probes/pci_names.h"
#include "util/text.h"
#include "util/version.h"

#include <cstdio>

namespace gd {
namespace json = boost::json;

namespace {

constexpr const char* k_pci_devices = "/sys/bus/pci/devices";
constexpr std::uint32_t k_vendor_nvidia = 0x10de;
constexpr std::uint32_t k_class_vga = 0x0300;
constexpr std::uint32_t k_class_3d = 0x0302;
constexpr std::uint32_t k_class_bridge_other = 0x0680;  // NVSwitch

std::string hex4(std::uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof text, "%04x", value);
  return text;
}

class FunctionReader {
 public:
  FunctionReader(ProbeContext& context, LayerFacts& layer, std::string dir)
      : m_host(context.host), m_layer(layer), m_dir(std::move(dir)) {}

  const std::string& dir() const { return m_dir; }

  std::optional<std::string> text(const char* attribute) {
    auto content = m_host.read_file(m_dir + "/" + attribute, 4096);
    if (!content) return std::nullopt;
    return std::string(trim(*content));
  }

  // A hex id attribute; junk is noted as unreadable evidence.
  std::optional<std::uint32_t> hex(const char* attribute) {
    auto value = text(attribute);
    if (!value) return std::nullopt;
    auto parsed = parse_hex(*value);
    if (!parsed) note_unreadable(m_layer, m_dir + "/" + attribute, "not a hexadecimal id", *value);
    return parsed;
  }

  std::string driver() {
    auto target = m_host.read_link(m_dir + "/driver");
    if (!target) return "none";
    const auto slash = target->rfind('/');
    return printable(slash == std::string::npos ? *target : target->substr(slash + 1), 64);
  }

 private:
  Host& m_host;
  LayerFacts& m_layer;
  std::string m_dir;
};

// "16.0 GT/s PCIe" -> 16.0; "Unknown" -> nullopt.
std::optional<double> link_speed(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  double value = 0;
  return std::sscanf(text->c_str(), "%lf", &value) == 1 && value > 0 && value < 1000 ? std::optional(value)
                                                                                      : std::nullopt;
}

json::object link_facts(FunctionReader& reader) {
  const auto speed = reader.text("current_link_speed"), max_speed = reader.text("max_link_speed");
  const auto width = reader.text("current_link_width"), max_width = reader.text("max_link_width");
  json::object link;
  link["speed"] = speed ? json::value(printable(*speed, 40)) : json::value(nullptr);
  link["max_speed"] = max_speed ? json::value(printable(*max_speed, 40)) : json::value(nullptr);
  // -1 stands for "unknown"; GCC 12 misreads optionals here (-Wmaybe-uninitialized).
  const std::int64_t width_n = width ? parse_int(*width).value_or(-1) : -1;
  const std::int64_t max_width_n = max_width ? parse_int(*max_width).value_or(-1) : -1;
  link["width"] = width_n > 0 ? json::value(width_n) : json::value(nullptr);
  link["max_width"] = max_width_n > 0 ? json::value(max_width_n) : json::value(nullptr);
  // A narrower link than the slot allows is a seating or riser fault; a
  // slower one is usually the GPU saving power while idle.
  if (width_n > 0 && max_width_n > 0) link["width_degraded"] = width_n < max_width_n;
  const auto s = link_speed(speed), m = link_speed(max_speed);
  if (s && m) link["speed_below_max"] = *s < *m;
  return link;
}

json::object describe_function(ProbeContext& context, FunctionReader& reader, const std::string& bdf,
                               std::uint32_t device_id, std::uint32_t pci_class) {
  json::object function{{"bdf", printable(bdf, 64)}, {"source", reader.dir()}, {"vendor_id", "10de"},
                        {"device_id", hex4(device_id)}};
  function["class"] = hex4(pci_class);
  const auto chip = context.rules.chips.lookup(device_id);
  const auto* product = context.rules.chips.product(device_id);
  // The table's name first, so that a report reads the same from every
  // build; libpci (pci.ids) only names ids newer than the table.
  const auto libpci_name = product ? std::nullopt : pci_device_name(k_vendor_nvidia, device_id);
  function["name"] = product        ? product->name
                     : libpci_name ? *libpci_name
                     : chip        ? chip->chip + " (10de:" + hex4(device_id) + ")"
                                   : "NVIDIA device 10de:" + hex4(device_id);
  const auto sub_vendor = reader.hex("subsystem_vendor"), sub_device = reader.hex("subsystem_device");
  if (sub_vendor && sub_device) function["subsystem"] = hex4(*sub_vendor) + ":" + hex4(*sub_device);
  function["driver"] = reader.driver();
  function["brand"] = product ? product->brand : "unknown";
  function["product_class"] = product ? product->product_class : "unknown";
  if (chip) {
    function["chip"] = chip->chip;
    function["architecture"] = chip->architecture;
    function["compute_capability"] = chip->compute_capability;
    if (chip->first_branch) function["first_branch"] = *chip->first_branch;
    if (chip->last_branch) function["last_branch"] = *chip->last_branch;
  }
  const auto numa = reader.text("numa_node");
  const auto numa_n = numa ? parse_int(*numa) : std::nullopt;  // -1: the machine has no NUMA
  if (numa_n) function["numa_node"] = *numa_n;
  return function;
}

}  // namespace

LayerFacts probe_hardware(ProbeContext& context) {
  LayerFacts layer{"hardware", Status::unknown, "", {}, {}};
  json::array gpus, nvswitches;
  auto entries = context.host.list_dir(k_pci_devices);
  layer.set("pci_scan", entries ? "ok" : errno_name(entries.error()), k_pci_devices);
  std::int64_t functions = 0;
  for (const auto& bdf : entries ? *entries : std::vector<std::string>{}) {
    ++functions;
    FunctionReader reader(context, layer, std::string(k_pci_devices) + "/" + bdf);
    if (reader.hex("vendor") != k_vendor_nvidia) continue;
    const auto pci_class = reader.hex("class");
    const auto device_id = reader.hex("device");
    if (!pci_class || !device_id) continue;
    const std::uint32_t base_class = *pci_class >> 8;
    if (base_class == k_class_vga || base_class == k_class_3d) {
      auto gpu = describe_function(context, reader, bdf, *device_id, base_class);
      gpu["link"] = link_facts(reader);
      gpus.push_back(std::move(gpu));
    } else if (base_class == k_class_bridge_other) {
      nvswitches.push_back(describe_function(context, reader, bdf, *device_id, base_class));
    }
  }
  layer.set("pci_function_count", functions, k_pci_devices);
  layer.set("gpu_count", static_cast<std::int64_t>(gpus.size()), k_pci_devices);
  layer.set("nvswitch_count", static_cast<std::int64_t>(nvswitches.size()), k_pci_devices);
  std::optional<Version> lowest;
  std::int64_t consumer = 0;
  for (const auto& gpu : gpus) {
    const auto& object = gpu.as_object();
    if (const auto* cc = object.if_contains("compute_capability"))
      if (auto version = Version::parse(cc->as_string()); version && (!lowest || *version < *lowest)) lowest = version;
    const auto brand = object.at("brand").as_string();
    if (brand == "geforce" || brand == "titan") ++consumer;
  }
  if (lowest) layer.set("min_compute_capability", lowest->text(), k_pci_devices);
  layer.set("consumer_gpu_count", consumer, k_pci_devices);
  layer.set("gpus", std::move(gpus), k_pci_devices);
  layer.set("nvswitches", std::move(nvswitches), k_pci_devices);

  const auto count = layer.facts["gpu_count"].as_int64();
  const std::string platform = context.platform();
  if (count > 0) {
    layer.status = Status::ok;
    const auto& first = layer.facts["gpus"].as_array().front().as_object();
    layer.summary = std::to_string(count) + " NVIDIA GPU" + (count > 1 ? "s" : "") + ": " +
                    std::string(first.at("name").as_string()) + (count > 1 ? ", ..." : "");
  } else if (platform == "wsl2" || platform == "gvisor") {
    layer.status = Status::skip;
    layer.summary = platform == "wsl2" ? "PCI is not visible under WSL2; the GPU is reached through /dev/dxg"
                                       : "gVisor hides the PCI bus; the GPU is reached through nvproxy";
  } else if (!entries) {
    layer.summary = "cannot list " + std::string(k_pci_devices) + " (" + errno_name(entries.error()) + ")";
  } else {
    layer.summary = "no NVIDIA GPU among " + std::to_string(functions) + " PCI functions";
  }
  return layer;
}

}  // namespace gd
