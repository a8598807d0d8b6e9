#include "probes/hardware_probe.h"

#include "platforms/machine_platform.h"
#include "probes/infiniband.h"

#include "probes/integrated_gpu.h"
#include "probes/pci_names.h"
#include "probes/vm_passthrough.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <cstdio>

namespace gd {

namespace {

constexpr const char* k_pci_devices = "/sys/bus/pci/devices";
constexpr std::uint32_t k_vendor_nvidia = 0x10de;
constexpr std::uint32_t k_class_vga = 0x0300;
constexpr std::uint32_t k_class_3d = 0x0302;
constexpr std::uint32_t k_class_bridge_other = 0x0680;  // NVSwitch
constexpr std::uint32_t k_vendor_mellanox = 0x15b3;
constexpr std::uint32_t k_connectx7 = 0x1021, k_connectx8 = 0x1023;

std::string hex4(std::uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof text, "%04x", value);
  return text;
}

class FunctionReader {
 public:
  FunctionReader(ProbeContext& context, ProbeNotes& notes, std::string dir)
      : m_host(context.host), m_notes(notes), m_dir(std::move(dir)) {}

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
    if (!parsed) m_notes.note_unreadable(m_dir + "/" + attribute, "not a hexadecimal id", *value);
    return parsed;
  }

  std::string driver() { return bound_driver(m_host, m_dir).value_or("none"); }

  // The raw VPD (at most 32 KiB by the PCI spec), or the errno name of reading it.
  Result<std::string> vpd() { return m_host.read_file(m_dir + "/vpd", 32 * 1024); }

 private:
  Host& m_host;
  ProbeNotes& m_notes;
  std::string m_dir;
};

// "16.0 GT/s PCIe" -> 16.0; "Unknown" -> nullopt.
std::optional<double> link_speed(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  double value = 0;
  return std::sscanf(text->c_str(), "%lf", &value) == 1 && value > 0 && value < 1000 ? std::optional(value)
                                                                                      : std::nullopt;
}

// Fourth-generation NVSwitch baseboards (HGX and DGX B200, B300) hide their
// NVSwitches behind a ConnectX bridge: its "limited" functions carry
// SMDL=SW_MNG in their VPD, and Fabric Manager and the NVLink Subnet Manager
// reach the switches through them (Fabric Manager User Guide). Only root may
// read VPD; unreadable ones are counted, never guessed.
void note_nvswitch_management_port(FunctionReader& reader, const std::string& bdf, HardwareFacts& facts) {
  const auto device = reader.hex("device");
  if (device != k_connectx7 && device != k_connectx8) return;
  auto vpd = reader.vpd();
  if (!vpd) {
    ++facts.bridge_vpd_unreadable;
    return;
  }
  if (contains(*vpd, "SMDL=SW_MNG") && facts.nvswitch_management_ports.size() < 16) facts.nvswitch_management_ports.push_back(printable(bdf, 20));
}

PciLink link_facts(FunctionReader& reader) {
  const auto speed = reader.text("current_link_speed"), max_speed = reader.text("max_link_speed");
  const auto width = reader.text("current_link_width"), max_width = reader.text("max_link_width");
  PciLink link;
  if (speed) link.speed = printable(*speed, 40);
  if (max_speed) link.max_speed = printable(*max_speed, 40);
  // -1 stands for "unknown"; GCC 12 misreads optionals here (-Wmaybe-uninitialized).
  const std::int64_t width_n = width ? parse_int(*width).value_or(-1) : -1;
  const std::int64_t max_width_n = max_width ? parse_int(*max_width).value_or(-1) : -1;
  if (width_n > 0) link.width = width_n;
  if (max_width_n > 0) link.max_width = max_width_n;
  // A narrower link than the slot allows is a seating or riser fault; a
  // slower one is usually the GPU saving power while idle.
  if (width_n > 0 && max_width_n > 0) link.width_degraded = width_n < max_width_n;
  const auto s = link_speed(speed), m = link_speed(max_speed);
  if (s && m) link.speed_below_max = *s < *m;
  return link;
}

PciFunction describe_function(ProbeContext& context, FunctionReader& reader, const std::string& bdf,
                              std::uint32_t device_id, std::uint32_t pci_class) {
  PciFunction function;
  function.bdf = printable(bdf, 64);
  function.source = reader.dir();
  function.device_id = hex4(device_id);
  function.pci_class = hex4(pci_class);
  const auto chip = context.tables.chips.lookup(device_id);
  const auto product = context.tables.chips.product(device_id);
  // The table's name first, so that a report reads the same from every
  // build; libpci (pci.ids) only names ids newer than the table.
  const auto libpci_name = product ? std::nullopt : pci_device_name(k_vendor_nvidia, device_id);
  function.name = product       ? std::string(product->name)
                  : libpci_name ? *libpci_name
                  : chip        ? chip->chip + " (10de:" + hex4(device_id) + ")"
                                : "NVIDIA device 10de:" + hex4(device_id);
  const auto sub_vendor = reader.hex("subsystem_vendor"), sub_device = reader.hex("subsystem_device");
  if (sub_vendor && sub_device) function.subsystem = hex4(*sub_vendor) + ":" + hex4(*sub_device);
  function.driver = reader.driver();
  function.driver_kind = driver_kind(function.driver);
  if (product) {
    function.brand = product->brand;
    function.product_class = product->product_class;
  }
  if (chip) {
    function.chip = chip->chip;
    function.architecture = chip->architecture;
    function.compute_capability = chip->compute_capability;
    if (chip->first_branch) function.first_branch = *chip->first_branch;
    if (chip->last_branch) function.last_branch = *chip->last_branch;
  }
  const auto numa = reader.text("numa_node");
  function.numa_node = numa ? parse_int(*numa) : std::nullopt;  // -1: the machine has no NUMA
  return function;
}

}  // namespace

std::optional<std::string> bound_driver(Host& host, const std::string& device_dir) {
  auto target = host.read_link(device_dir + "/driver");
  if (!target) return std::nullopt;
  return printable(base_name(*target), 64);
}

DriverKind driver_kind(std::string_view driver) {
  std::string name = to_lower(driver);
  std::replace(name.begin(), name.end(), '-', '_');
  if (name == "none" || name.empty()) return DriverKind::none;
  if (name == "nvidia") return DriverKind::nvidia;
  if (name == "nouveau" || name == "nova_core" || name == "novacore") return DriverKind::open_source;
  if (name == "vfio_pci" || name == "pci_stub" || name == "nvgrace_gpu_vfio_pci") return DriverKind::passthrough;
  return DriverKind::other;
}

Probed<HardwareFacts> probe_hardware(ProbeContext& context) {
  Probed<HardwareFacts> layer;
  auto& facts = layer.facts;
  auto entries = context.host.list_dir(k_pci_devices);
  facts.pci_scan = entries ? "ok" : errno_name(entries.error());
  for (const auto& bdf : entries ? *entries : std::vector<std::string>{}) {
    ++facts.pci_function_count;
    FunctionReader reader(context, layer, join_path(k_pci_devices, bdf));
    const auto vendor = reader.hex("vendor");
    if (vendor == k_vendor_mellanox) {
      note_nvswitch_management_port(reader, bdf, facts);
      continue;
    }
    if (vendor != k_vendor_nvidia) continue;
    const auto pci_class = reader.hex("class");
    const auto device_id = reader.hex("device");
    if (!pci_class || !device_id) continue;
    const std::uint32_t base_class = *pci_class >> 8;
    if (base_class == k_class_vga || base_class == k_class_3d) {
      auto gpu = describe_function(context, reader, bdf, *device_id, base_class);
      gpu.link = link_facts(reader);
      facts.gpus.push_back(std::move(gpu));
    } else if (base_class == k_class_bridge_other) {
      facts.nvswitches.push_back(describe_function(context, reader, bdf, *device_id, base_class));
    }
  }
  facts.gpu_count = static_cast<std::int64_t>(facts.gpus.size());
  // GPUs a VM holds are not this machine's to drive: what its rules expect the driver to claim.
  if (facts.gpu_count > 0) {
    const auto passthrough = read_passthrough_config(context.host);
    for (auto& gpu : facts.gpus) {
      gpu.held_for_vm = held_for_vm(context.host, passthrough, gpu.bdf, gpu.vendor_id + ":" + gpu.device_id, gpu.source);
      if (gpu.driver_kind != DriverKind::passthrough) ++facts.host_gpu_count;
    }
  }
  facts.nvswitch_count = static_cast<std::int64_t>(facts.nvswitches.size());
  std::optional<Version> lowest;
  for (const auto& gpu : facts.gpus) {
    if (gpu.compute_capability)
      if (auto version = Version::parse(*gpu.compute_capability); version && (!lowest || *version < *lowest)) lowest = version;
    if (is_consumer_brand(gpu.brand)) ++facts.consumer_gpu_count;
    if (gpu.product_class == ProductClass::datacenter) ++facts.datacenter_gpu_count;
  }
  if (lowest) {
    facts.min_compute_capability = lowest->text();
    layer.source(&HardwareFacts::min_compute_capability, k_pci_devices);
  }
  facts.integrated_gpu = probe_integrated_gpu(context, layer);
  if (context.options.expected_gpus) {
    facts.expected_gpus = context.options.expected_gpus;
    layer.source(&HardwareFacts::expected_gpus, "--expect");
  }
  auto ib = read_ib_ports(context.host);
  facts.ib_ports = std::move(ib.ports);
  if (ib.cut) facts.ib_ports_cut = "more than " + std::to_string(facts.ib_ports.size()) + " ports: the rest were not read";
  for (const auto& port : facts.ib_ports) facts.ib_ports_active += port.state == "ACTIVE" || port.state == "ACTIVE_DEFER" ? 1 : 0;
  if (!facts.ib_ports.empty()) layer.source(&HardwareFacts::ib_ports, "/sys/class/infiniband/*/ports/*");
  if (context.options.expected_ib_ports) {
    facts.expected_ib_ports = context.options.expected_ib_ports;
    layer.source(&HardwareFacts::expected_ib_ports, "--expect");
  }
  layer.source_of_each(k_pci_devices, &HardwareFacts::pci_scan, &HardwareFacts::pci_function_count, &HardwareFacts::gpu_count,
                       &HardwareFacts::host_gpu_count, &HardwareFacts::nvswitch_count, &HardwareFacts::consumer_gpu_count,
                       &HardwareFacts::datacenter_gpu_count, &HardwareFacts::gpus, &HardwareFacts::nvswitches,
                       &HardwareFacts::nvswitch_management_ports, &HardwareFacts::bridge_vpd_unreadable);

  const auto platform = context.system.platform;
  if (facts.gpu_count > 0) {
    layer.status = Status::ok;
    layer.summary = std::to_string(facts.gpu_count) + " NVIDIA GPU" + (facts.gpu_count > 1 ? "s" : "") + ": " +
                    facts.gpus.front().name + (facts.gpu_count > 1 ? ", ..." : "");
  } else if (const auto& soc = facts.integrated_gpu) {
    // A Jetson: the GPU is part of the SoC, on the platform bus.
    layer.status = soc->chip ? Status::ok : Status::unknown;
    layer.summary = soc->chip ? "integrated GPU: " + std::string(enum_name(*soc->architecture)) + " " + *soc->chip + " (compute capability " +
                                    *soc->compute_capability + ") of " + soc->soc_name.value.value_or(soc->soc)
                              : "a Tegra SoC gpudoctor does not know (" + soc->soc + ")";
    if (soc->model) layer.summary += ", " + *soc->model;
    if (soc->l4t_release)
      layer.summary += ", L4T " + *soc->l4t_release + (soc->jetpack ? " (JetPack " + *soc->jetpack + ")" : std::string());
  } else if (const char* hidden = platform_method(platform).pci_hidden) {
    layer.status = Status::skip;
    layer.summary = hidden;
  } else if (!entries) {
    layer.summary = "cannot list " + std::string(k_pci_devices) + " (" + errno_name(entries.error()) + ")";
  } else {
    layer.summary = "no NVIDIA GPU among " + std::to_string(facts.pci_function_count) + " PCI functions";
  }
  return layer;
}

}  // namespace gd
