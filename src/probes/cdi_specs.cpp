#include "probes/cdi_specs.h"

#include "formats/cdi_spec.h"
#include "host/file_mode.h"
#include "probes/systemd_units.h"
#include "util/path.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

namespace gd {

namespace {

constexpr const char* k_spec_dirs[] = {"/etc/cdi", "/var/run/cdi"};
constexpr std::size_t k_shown = 16;

bool is_spec_name(std::string_view name) {
  return name.ends_with(".yaml") || name.ends_with(".yml") || name.ends_with(".json");
}

// The names nvidia-ctk and the CDI library give NVIDIA's specs (nvidia.yaml,
// nvidia.com-gpu.yaml), not a DRA driver's per-claim ones (k8s.gpu.nvidia.com-
// claim_*), which are 0600 on purpose and read by the root engine alone.
bool is_nvidia_spec_name(std::string_view name) { return name.starts_with("nvidia"); }

// libcuda.so.550.54.15 among the host paths: the driver the spec was generated for.
std::optional<std::string> driver_of(const CdiSpec& spec) {
  for (const auto& path : spec.host_paths) {
    const std::string_view name = base_name(path);
    if (!name.starts_with("libcuda.so.")) continue;
    const auto version = name.substr(std::string_view("libcuda.so.").size());
    if (std::count(version.begin(), version.end(), '.') >= 1 && Version::parse(version)) return std::string(version);
  }
  return std::nullopt;
}

CdiSpecFacts check_spec(Host& host, const std::string& path, const CdiSpec& spec, bool in_container) {
  CdiSpecFacts facts{.path = printable(path, 200), .kind = spec.kind};
  facts.device_count = static_cast<std::int64_t>(spec.devices.size());
  for (const auto& name : spec.devices)
    if (facts.devices.size() < k_shown) facts.devices.push_back(name);
  facts.driver_version.value = driver_of(spec);
  std::set<std::string_view> seen;  // a spec names a library in every device's edits: stat each path once
  if (in_container) {
    // The host paths are the host's; what a container started through this spec must hold is its mounts' targets.
    for (const auto& inside : spec.common_mounts) {
      if (!seen.insert(inside).second || host.exists(inside)) continue;
      ++facts.missing_mount_count;
      if (facts.missing_mounts.size() < k_shown) facts.missing_mounts.push_back(inside);
    }
    return facts;
  }
  for (const auto& needed : spec.host_paths) {
    if (!seen.insert(needed).second || host.exists(needed)) continue;
    ++facts.missing_count;
    if (facts.missing_host_paths.size() < k_shown) facts.missing_host_paths.push_back(needed);
  }
  // Numbers the spec pins, against the host's node: nvidia-uvm's major is
  // given at module load, so a spec written on another boot may pin a stale one.
  for (const auto& pinned : spec.pinned_nodes) {
    const auto node = host.device(pinned.path);
    if (!node || node->type != FileType::char_device) continue;
    if (pinned.major == node->major && (!pinned.minor || *pinned.minor == node->minor)) continue;
    ++facts.stale_node_count;
    if (facts.stale_node_numbers.size() < k_shown)
      facts.stale_node_numbers.push_back(printable(pinned.path, 200) + " " + std::to_string(pinned.major) + ":" +
                                         (pinned.minor ? std::to_string(*pinned.minor) : "*") + " (here " +
                                         std::to_string(node->major) + ":" + std::to_string(node->minor) + ")");
  }
  return facts;
}

}  // namespace

bool CdiSpecBudget::admit(const std::string& path, ProbeNotes& notes) {
  if (m_spent) return false;
  if (m_files < k_max_files && m_bytes < k_max_bytes) {
    ++m_files;
    return true;
  }
  m_spent = true;
  notes.note_unreadable(path, m_files == k_max_files ? "more than " + std::to_string(k_max_files) + " CDI specs: this and the rest were not read"
                                                     : "more than " + std::to_string(k_max_bytes >> 20) + " MiB of CDI specs: this and the rest were not read");
  return false;
}

CdiRefresh cdi_refresh_state(Host& host) {
  const auto unit = find_systemd_unit(host, "nvidia-cdi-refresh.path");
  return unit.enabled ? CdiRefresh::enabled : unit.path ? CdiRefresh::installed : CdiRefresh::absent;
}

std::vector<CdiSpecFacts> read_cdi_specs(ProbeContext& context, Probed<ContainerFacts>& notes, bool in_container) {
  Host& host = context.host;
  std::vector<CdiSpecFacts> specs;
  bool any_dir = false;
  CdiSpecBudget budget;
  // A DRA driver's claim specs are 0600 (the CDI cache writes them through
  // os.CreateTemp): as a user, hundreds fail alike, and one note says so.
  std::map<int, std::pair<std::size_t, std::size_t>> refused;  // errno -> its note, and how many more
  for (const char* dir : k_spec_dirs) {
    auto names = host.list_dir(dir);
    if (!names) continue;
    any_dir = true;
    std::sort(names->begin(), names->end());
    for (const auto& name : *names) {
      if (!is_spec_name(name)) continue;
      const std::string path = std::string(dir) + "/" + name;
      if (!budget.admit(path, notes)) continue;
      auto text = host.read_file(path, k_max_cdi_spec + 1);
      if (!text) {
        auto [alike, first] = refused.try_emplace(text.error().value(), notes.unreadable.size(), 0);
        if (first)
          notes.note_unreadable(path, "cannot read: " + errno_name(text.error()));
        else
          ++alike->second.second;
        // What this user cannot read, a rootless engine run by this user cannot either.
        if (text.error().value() == EACCES && is_nvidia_spec_name(name))
          specs.push_back({.path = printable(path, 200), .unreadable_here = true});
        continue;
      }
      budget.spend(text->size());
      // Another vendor's spec names nothing of NVIDIA's: not parsed at all
      // (a damaged one of NVIDIA's may have lost its kind, not its name).
      if (name.find("nvidia") == std::string::npos && text->find("nvidia") == std::string::npos) continue;
      // Nor is a YAML spec whose kind line names another vendor's, or the GPU Operator's management kind.
      if (const auto kind = cdi_spec_yaml_kind(*text); !kind.empty() && !kind.starts_with("nvidia.com/")) continue;
      auto parsed = parse_cdi_spec(*text);
      if (!parsed) {
        specs.push_back({.path = printable(path, 200), .problem = parsed.error()});
        continue;
      }
      if (!parsed->kind.starts_with("nvidia.com/")) continue;  // another vendor's devices
      specs.push_back(check_spec(host, path, *parsed, in_container));
      // Read here (as root, or as its owner), yet perhaps not by a rootless engine another user runs.
      if (const auto info = host.stat(path); info && info->type == FileType::regular && !(info->mode & 0004))
        specs.back().private_mode = mode_string(info->mode);
    }
  }
  for (const auto& [error, note] : refused)
    if (note.second > 0) notes.unreadable[note.first].problem += ", nor " + std::to_string(note.second) + " more spec(s) alike";
  if (any_dir) notes.source(&ContainerFacts::cdi_specs, concat({k_spec_dirs[0], ", ", k_spec_dirs[1]}));
  return specs;
}

}  // namespace gd
