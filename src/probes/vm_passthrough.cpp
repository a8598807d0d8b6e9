#include "probes/vm_passthrough.h"

#include "probes/module_config.h"

#include "util/path.h"
#include "util/text.h"

namespace gd {
namespace {

constexpr std::size_t k_max_files = 256, k_max_entries = 64, k_config_file = 64 * 1024;

void add(std::vector<PassthroughConfig::Entry>& entries, std::string_view key, std::string where) {
  if (entries.size() < k_max_entries) entries.push_back({to_lower(printable(key, 40)), std::move(where)});
}

// "10de:2204,10de:1aef" (vendor:device[:subvendor...]): each vendor:device.
void add_ids(PassthroughConfig& config, std::string_view list, const std::string& where) {
  for (auto id : split(list, ',')) {
    const auto parts = split(trim(id), ':');
    if (parts.size() >= 2) add(config.ids, concat({parts[0], ":", parts[1]}), where);
  }
}

void read_modprobe_ids(Host& host, PassthroughConfig& config) {
  each_modprobe_line(host, [&config](const std::string& path, std::string_view line) {
    const auto words = split(line, ' ');
    if (words.size() < 3 || words[0] != "options" || (words[1] != "vfio-pci" && words[1] != "vfio_pci")) return;
    for (std::size_t i = 2; i < words.size(); ++i)
      if (words[i].starts_with("ids=")) add_ids(config, words[i].substr(4), concat({printable(path, 200), ": options vfio-pci ids="}));
  });
}

void read_kernel_command_line(Host& host, PassthroughConfig& config) {
  auto text = host.read_file("/proc/cmdline", k_config_file);
  if (!text) return;
  for (auto word : split(trim(*text), ' '))
    for (std::string_view prefix : {"vfio-pci.ids=", "vfio_pci.ids="})
      if (word.starts_with(prefix)) add_ids(config, word.substr(prefix.size()), "/proc/cmdline: vfio-pci.ids=");
}

// "hostpci0: 0000:01:00,pcie=1,x-vga=1" or "hostpci1: 02:00.0;03:00.0": host
// addresses before the first comma, ';'-separated, with or without domain and function.
void read_proxmox_vms(Host& host, PassthroughConfig& config) {
  constexpr const char* k_vms = "/etc/pve/qemu-server";
  auto names = host.list_dir(k_vms);
  if (!names) return;
  std::size_t files = 0;
  for (const auto& name : *names) {
    if (!name.ends_with(".conf") || ++files > k_max_files) continue;
    const std::string path = join_path(k_vms, name);
    auto text = host.read_file(path, k_config_file);
    if (!text) continue;
    for (auto line : lines(*text)) {
      if (line.starts_with("[")) break;  // snapshots follow: the current config ends here
      if (!line.starts_with("hostpci")) continue;
      const auto colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      const auto key = line.substr(0, colon);
      const auto value = trim(line.substr(colon + 1));
      const auto host_part = value.substr(0, value.find(','));
      if (host_part.starts_with("mapping=")) continue;  // resolved through pci.cfg below
      for (auto address : split(host_part, ';')) add(config.addresses, trim(address), concat({printable(path, 200), ": ", key}));
    }
  }
}

// /etc/pve/mapping/pci.cfg: "pci: NAME" then indented "map id=10de:2204,node=pve,path=0000:01:00.0".
void read_proxmox_mappings(Host& host, PassthroughConfig& config) {
  constexpr const char* k_mappings = "/etc/pve/mapping/pci.cfg";
  auto text = host.read_file(k_mappings, k_config_file);
  if (!text) return;
  for (auto line : lines(*text)) {
    const auto trimmed = trim(line);
    if (!trimmed.starts_with("map ")) continue;
    for (auto field : split(trimmed.substr(4), ','))
      if (field.starts_with("path=")) add(config.addresses, field.substr(5), concat({k_mappings, ": map"}));
  }
}

// "0000:01:00.0" against "0000:01:00", "01:00" or "01:00.0".
bool names_address(std::string_view bdf, std::string_view wanted) {
  if (wanted.empty()) return false;
  const std::string_view without_function = bdf.substr(0, bdf.rfind('.'));
  for (std::string_view candidate : {bdf, without_function})
    if (candidate == wanted || (candidate.size() > wanted.size() && candidate.ends_with(wanted) &&
                                candidate[candidate.size() - wanted.size() - 1] == ':'))
      return true;
  return false;
}

}  // namespace

PassthroughConfig read_passthrough_config(Host& host) {
  PassthroughConfig config;
  read_modprobe_ids(host, config);
  read_kernel_command_line(host, config);
  read_proxmox_vms(host, config);
  read_proxmox_mappings(host, config);
  return config;
}

std::optional<std::string> held_for_vm(Host& host, const PassthroughConfig& config, const std::string& bdf,
                                       const std::string& id, const std::string& sysfs_dir) {
  for (const auto& entry : config.addresses)
    if (names_address(to_lower(bdf), entry.key)) return entry.where;
  for (const auto& entry : config.ids)
    if (entry.key == to_lower(id)) return concat({entry.where, entry.key});
  // libvirt's managed hostdev binds through driver_override (Proxmox does not: it writes new_id).
  if (auto override = host.read_file(join_path(sysfs_dir, "driver_override"), 256); override && trim(*override) == "vfio-pci")
    return concat({sysfs_dir, "/driver_override: vfio-pci"});
  return std::nullopt;
}

}  // namespace gd
