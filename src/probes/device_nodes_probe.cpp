#include "probes/device_nodes_probe.h"

#include "host/file_mode.h"
#include "platforms/machine_platform.h"
#include "probes/allocation.h"
#include "probes/device_open.h"
#include "probes/mountinfo.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <map>

namespace gd {

namespace {

constexpr std::uint32_t k_nvidia_major = 195;
constexpr std::uint32_t k_nvidiactl_minor = 255;
constexpr std::uint32_t k_modeset_minor = 254;
constexpr const char* k_proc_devices = "/proc/devices";

// "Character devices:\n195 nvidia\n510 nvidia-uvm\n..." -> name to major.
std::map<std::string, std::uint32_t> read_char_majors(Host& host) {
  std::map<std::string, std::uint32_t> majors;
  auto text = host.read_file(k_proc_devices, k_small_file);
  if (!text) return majors;
  for (auto line : lines(*text)) {
    if (line.starts_with("Block")) break;
    const auto fields = split(trim(line), ' ');
    if (fields.size() != 2) continue;
    if (auto major = parse_int(fields[0]); major && *major >= 0 && *major < (1 << 12))
      majors.emplace(std::string(fields[1]), static_cast<std::uint32_t>(*major));
  }
  return majors;
}

// The overflow id: what an id unmapped in this user namespace shows as.
constexpr std::uint32_t k_overflow_id = 65534;

// What the mode bits allow this user, as the kernel would decide it before
// any cgroup: root passes, else owner, group (primary or supplementary), other.
// Root of a user namespace passes only for nodes whose owner is mapped into
// it (capabilities hold over the namespace's own ids: user_namespaces(7)).
NodeAccess access_for(const DeviceNode& node, const UserIds& user, bool user_namespace) {
  const bool unmapped = user_namespace && node.uid == k_overflow_id;
  if (user.uid == 0 && !unmapped) return NodeAccess::rw;
  std::uint32_t bits = node.mode & 07;
  const bool in_group = node.gid == user.gid || std::find(user.groups.begin(), user.groups.end(), node.gid) != user.groups.end();
  if (node.uid == user.uid) bits = (node.mode >> 6) & 07;
  else if (in_group) bits = (node.mode >> 3) & 07;
  const bool read = bits & 04, write = bits & 02;
  return read && write ? NodeAccess::rw : read ? NodeAccess::r : write ? NodeAccess::w : NodeAccess::none;
}

// nvgpu's nodes on a Jetson (the toolkit's devices.csv lists them): the
// allocator and the GPU's control, channel and address-space nodes, in the
// JetPack 4/5 nvhost form and the JetPack 6 nvgpu/igpu0 form.
constexpr const char* k_integrated_gpu_nodes[] = {"/dev/nvmap", "/dev/nvhost-ctrl-gpu", "/dev/nvhost-gpu", "/dev/nvhost-as-gpu",
                                                  "/dev/nvgpu/igpu0/ctrl", "/dev/nvgpu/igpu0/channel", "/dev/nvgpu/igpu0/as"};

struct Expected {
  std::optional<std::uint32_t> major;
  std::optional<std::uint32_t> minor;
  bool required = false;
};

Expected expected_for(const std::string& path, const std::map<std::string, std::uint32_t>& majors) {
  auto dynamic = [&majors](const char* name) -> std::optional<std::uint32_t> {
    const auto found = majors.find(name);
    return found == majors.end() ? std::nullopt : std::optional(found->second);
  };
  if (path == "/dev/nvidiactl") return {k_nvidia_major, k_nvidiactl_minor, true};
  if (path == "/dev/nvidia-modeset") return {k_nvidia_major, k_modeset_minor, false};
  if (path == "/dev/nvidia-uvm") return {dynamic("nvidia-uvm"), 0, true};
  if (path == "/dev/nvidia-uvm-tools") return {dynamic("nvidia-uvm"), 1, false};
  if (path.starts_with("/dev/nvidia-caps/")) return {dynamic("nvidia-caps"), std::nullopt, false};
  if (path.starts_with("/dev/nvidia-nvswitch")) return {dynamic("nvidia-nvswitch"), std::nullopt, false};
  if (path == "/dev/dxg") return {dynamic("dxg"), std::nullopt, true};
  // Jetson's nvmap and nvgpu nodes: dynamic numbers, yet every CUDA program opens them.
  if (std::find(std::begin(k_integrated_gpu_nodes), std::end(k_integrated_gpu_nodes), path) != std::end(k_integrated_gpu_nodes))
    return {std::nullopt, std::nullopt, true};
  if (!path.starts_with("/dev/nvidia")) return {};
  const auto number = parse_int(std::string_view(path).substr(std::string_view("/dev/nvidia").size()));
  if (number) return {k_nvidia_major, static_cast<std::uint32_t>(*number), true};
  return {};
}

// /dev/nvidiaN with N a number; "/dev/nvidia-uvm" and friends are not GPUs.
std::optional<std::int64_t> gpu_minor(std::string_view name) {
  if (!name.starts_with("nvidia")) return std::nullopt;
  const auto number = parse_int(name.substr(6));
  return number && *number >= 0 && *number < 4096 ? number : std::nullopt;
}

std::vector<std::string> candidate_paths(Host& host, bool integrated_gpu) {
  std::vector<std::string> paths{"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
                                 "/dev/dxg"};
  if (integrated_gpu) paths.insert(paths.end(), std::begin(k_integrated_gpu_nodes), std::end(k_integrated_gpu_nodes));
  if (auto entries = host.list_dir("/dev")) {
    for (const auto& name : *entries)
      if (gpu_minor(name) || name.starts_with("nvidia-nvswitch")) paths.push_back("/dev/" + name);
  }
  if (auto caps = host.list_dir("/dev/nvidia-caps"))
    for (const auto& name : *caps) paths.push_back("/dev/nvidia-caps/" + name);
  return paths;
}

// Only a character device with NVIDIA's numbers is opened: a node of any
// other kind under an NVIDIA name is reported, never touched.
bool may_open(const std::string& path, const DeviceNode& node, const Expected& expected) {
  if (node.type != FileType::char_device) return false;
  if (expected.major) return node.major == *expected.major;
  return path == "/dev/dxg";  // its major is dynamic; /proc/devices may not say it
}

NodeFacts describe_node(const std::string& path, const DeviceNode& node, const Expected& expected, const UserIds& user,
                        bool user_namespace) {
  NodeFacts item;
  item.path = path;
  item.type = node.type;
  item.major = node.major;
  item.minor = node.minor;
  item.mode = mode_string(node.mode);
  item.uid = node.uid;
  item.gid = node.gid;
  item.required = expected.required;
  item.access = access_for(node, user, user_namespace);
  const bool wrong_major = expected.major && node.major != *expected.major;
  const bool wrong_minor = expected.minor && node.minor != *expected.minor;
  item.wrong_number = node.type == FileType::char_device && (wrong_major || wrong_minor);
  if (expected.major || expected.minor)
    item.expected = (expected.major ? std::to_string(*expected.major) : std::string("?")) + ":" +
                    (expected.minor ? std::to_string(*expected.minor) : std::string("any"));
  return item;
}

// Host only: every GPU the module claimed should have its /dev/nvidiaN.
std::vector<MissingGpuNode> find_missing_gpu_nodes(const ProbeContext& context, const std::vector<std::int64_t>& gpu_minors) {
  std::vector<MissingGpuNode> missing;
  for (const auto& gpu : context.kernel_module.claimed_gpus) {
    if (!gpu.minor || std::find(gpu_minors.begin(), gpu_minors.end(), *gpu.minor) != gpu_minors.end()) continue;
    missing.push_back({"/dev/nvidia" + std::to_string(*gpu.minor), gpu.bdf, *gpu.minor});
  }
  return missing;
}

// What CUDA will enumerate for CUDA_VISIBLE_DEVICES: entries are read in
// order and reading stops at the first that names no GPU; only one MIG
// device is ever enumerated per process.
CudaVisibleDevices visible_to_cuda(const std::string& value, std::int64_t gpu_count, const std::vector<std::string>& uuids) {
  CudaVisibleDevices result;
  result.value = printable(value, 200);
  result.gpu_count = gpu_count;
  for (auto raw : split(value, ',')) {
    const std::string entry(trim(raw));
    bool names_a_gpu = false;
    if (auto index = parse_int(entry)) {
      names_a_gpu = *index >= 0 && *index < gpu_count;
    } else if (entry.starts_with("MIG-")) {
      names_a_gpu = ++result.mig_entries == 1;
    } else if (entry.starts_with("GPU-") && entry.size() > 4) {
      for (const auto& uuid : uuids) names_a_gpu = names_a_gpu || uuid.starts_with(entry);
      if (uuids.empty()) names_a_gpu = true;  // UUIDs unknown here: give it the benefit of the doubt
    }
    if (!names_a_gpu) {
      result.stopped_at = printable(entry, 60);
      break;
    }
    ++result.selected;
  }
  return result;
}

// Puts each node's open result in place; returns the version ioctl's answer
// on /dev/nvidiactl ("" from drivers before 530.30.02), if any.
std::optional<std::string> record_opens(Probed<DeviceNodesFacts>& layer, const std::vector<DeviceOpenResult>& results) {
  std::optional<std::string> ioctl_version;
  for (const auto& opened : results) {
    for (auto& item : layer.facts.nodes)
      if (item.path == opened.path && opened.open) item.open = *opened.open;
    if (opened.path == "/dev/nvidiactl" && opened.ioctl_error) {
      layer.facts.ioctl_error = *opened.ioctl_error;
      layer.source(&DeviceNodesFacts::ioctl_error, "ioctl NV_ESC_CHECK_VERSION_STR on /dev/nvidiactl");
    }
    if (opened.path != "/dev/nvidiactl" || !opened.driver_version) continue;
    // An empty answer is how drivers before 530.30.02 reply; anything else must be a version.
    if (opened.driver_version->empty() || Version::parse(*opened.driver_version)) ioctl_version = *opened.driver_version;
    else layer.note_unreadable(opened.path, "the version ioctl answered something that is not a version", *opened.driver_version);
  }
  return ioctl_version;
}

// A node on a mount with nodev cannot be opened, whatever its mode (fs/namei.c
// may_open: EACCES, as a security module refuses). Where an open was refused
// so, the mount table says which it was; read only then.
void find_nodev_mounts(ProbeContext& context, Probed<DeviceNodesFacts>& layer) {
  const auto refused = [](const NodeFacts& node) { return node.open && *node.open == "EACCES"; };
  if (std::none_of(layer.facts.nodes.begin(), layer.facts.nodes.end(), refused)) return;
  const auto* mounts = self_mounts(context);
  if (!mounts) return;
  for (auto& node : layer.facts.nodes)
    if (const auto* mount = refused(node) ? mount_of(*mounts, node.path) : nullptr; mount && has_mount_option(*mount, "nodev"))
      node.nodev_mount = printable(mount->mount_point, 200);
}

// CAP_MKNOD (capability 27) in this process's effective set, from the CapEff
// line of /proc/self/status; unknown where the file does not say.
std::optional<bool> may_mknod(Host& host) {
  constexpr unsigned k_cap_mknod = 27;
  auto status = host.read_file("/proc/self/status", k_small_file);
  if (!status) return std::nullopt;
  for (const auto line : lines(*status)) {
    if (!line.starts_with("CapEff:")) continue;
    const auto hex = trim(line.substr(7));
    std::uint64_t mask = 0;
    const auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), mask, 16);
    if (error != std::errc() || end != hex.data() + hex.size()) return std::nullopt;
    return ((mask >> k_cap_mknod) & 1) != 0;
  }
  return std::nullopt;
}

NodeRepair node_repair(ProbeContext& context, std::optional<bool> caller_may_mknod) {
  const auto& params = context.kernel_module.params;
  if (const auto* modify = params.if_contains("ModifyDeviceFiles"); modify && modify->is_string() && modify->get_string() == "0")
    return NodeRepair::nobody;
  if (context.container.in_container) return NodeRepair::unknown;
  if (caller_may_mknod && *caller_may_mknod) return NodeRepair::this_caller;
  // setuid root: it makes the nodes for any user who runs it (the
  // kernel-module layer found whether it is there at all).
  if (context.kernel_module.nvidia_modprobe)
    if (auto modprobe = context.host.stat("/usr/bin/nvidia-modprobe");
        modprobe && modprobe->type == FileType::regular && modprobe->uid == 0 && (modprobe->mode & 04000))
      return NodeRepair::nvidia_modprobe;
  return caller_may_mknod ? NodeRepair::nobody : NodeRepair::unknown;
}

}  // namespace

Probed<DeviceNodesFacts> probe_device_nodes(ProbeContext& context) {
  Probed<DeviceNodesFacts> layer;
  auto& facts = layer.facts;
  Host& host = context.host;
  const UserIds user = host.user();
  const auto majors = read_char_majors(host);
  std::vector<std::string> to_open;
  const bool integrated_gpu = context.hardware.integrated_gpu.has_value();
  std::int64_t integrated_nodes = 0;
  for (const auto& path : candidate_paths(host, integrated_gpu)) {
    auto node = host.device(path);
    if (!node) {
      if (node.error().value() != ENOENT) layer.note_unreadable(path, "cannot stat: " + errno_name(node.error()));
      continue;
    }
    const auto expected = expected_for(path, majors);
    facts.nodes.push_back(describe_node(path, *node, expected, user, context.container.user_namespace.value_or(false)));
    if (may_open(path, *node, expected) && !context.options.gpu_table) to_open.push_back(path);
    facts.nvidiactl_present = facts.nvidiactl_present || path == "/dev/nvidiactl";
    facts.uvm_present = facts.uvm_present || path == "/dev/nvidia-uvm";
    facts.dxg_present = facts.dxg_present || path == "/dev/dxg";
    if (integrated_gpu && !path.starts_with("/dev/nvidia") && path != "/dev/dxg") ++integrated_nodes;
    if (path == "/dev/nvmap") facts.nvmap_present = true;
    if (auto minor = gpu_minor(std::string_view(path).substr(5))) facts.gpu_minors.push_back(*minor);
  }
  // After the file-based walk, so that what an open may change (a driver
  // creating state on first use) is not what we read; asked ahead, taken
  // when the layer is finished (finish_device_nodes).
  context.driver_answers.open_nodes_ahead(host, std::move(to_open));
  if (integrated_gpu) {
    facts.integrated_gpu_nodes = integrated_nodes;
    facts.nvmap_present = facts.nvmap_present.value_or(false);
    layer.source(&DeviceNodesFacts::integrated_gpu_nodes, "/dev");
    layer.source(&DeviceNodesFacts::nvmap_present, "/dev/nvmap");
  }
  facts.gpu_node_count = static_cast<std::int64_t>(facts.gpu_minors.size());
  layer.source(&DeviceNodesFacts::nvidiactl_present, "/dev/nvidiactl");
  layer.source(&DeviceNodesFacts::uvm_present, "/dev/nvidia-uvm");
  layer.source(&DeviceNodesFacts::dxg_present, "/dev/dxg");
  layer.source_of_each("/dev", &DeviceNodesFacts::gpu_node_count, &DeviceNodesFacts::gpu_minors, &DeviceNodesFacts::missing_gpu_nodes,
                       &DeviceNodesFacts::nodes);
  const bool in_container = context.container.in_container;
  if (!in_container) facts.missing_gpu_nodes = find_missing_gpu_nodes(context, facts.gpu_minors);
  // Nodes are expected wherever a driver should be reachable: a host with the
  // module loaded, a gVisor sandbox, or any container (which needs them injected).
  const auto platform = context.system.platform;
  const bool loaded = context.kernel_module.loaded && *context.kernel_module.loaded;
  // A Jetson whose GPU nvgpu drives has no /dev/nvidia* at all (Thor's nvidia module does).
  const auto& soc = context.hardware.integrated_gpu;
  const bool nvgpu_jetson = soc && !loaded && soc->driver.value.value_or("") != "nvidia";
  switch (platform_method(platform).nodes) {
    case NodesExpected::always: facts.nodes_expected = true; break;
    case NodesExpected::never: facts.nodes_expected = false; break;
    case NodesExpected::where_loaded: facts.nodes_expected = (loaded || in_container) && !nvgpu_jetson; break;
  }
  facts.caller_may_mknod = may_mknod(host);
  facts.node_repair = node_repair(context, facts.caller_may_mknod);
  layer.source(&DeviceNodesFacts::caller_may_mknod, "/proc/self/status CapEff");
  layer.source(&DeviceNodesFacts::node_repair, "/proc/self/status CapEff, /proc/driver/nvidia/params ModifyDeviceFiles, /usr/bin/nvidia-modprobe");
  if (auto value = host.env("CUDA_VISIBLE_DEVICES")) {
    std::vector<std::string> uuids;
    for (const auto& gpu : context.kernel_module.claimed_gpus)
      if (gpu.uuid) uuids.push_back(*gpu.uuid);
    const auto claimed_count = static_cast<std::int64_t>(context.kernel_module.claimed_gpus.size());
    // In a container CUDA sees the GPUs whose nodes were injected.
    const std::int64_t count = in_container ? facts.gpu_node_count : std::max(claimed_count, facts.gpu_node_count);
    facts.cuda_visible_devices = visible_to_cuda(*value, count, uuids);
    layer.source(&DeviceNodesFacts::cuda_visible_devices, "env CUDA_VISIBLE_DEVICES");
  }
  return layer;
}

void finish_device_nodes(ProbeContext& context, Probed<DeviceNodesFacts>& layer) {
  auto& facts = layer.facts;
  const auto ioctl_version = record_opens(layer, context.driver_answers.device_opens());
  find_nodev_mounts(context, layer);
  facts.allocation = read_allocation(context.host, context.container, facts.nodes);
  layer.source(&DeviceNodesFacts::allocation, "the scheduler's variables, /proc/self/cgroup, the nodes' opens");
  if (ioctl_version) {
    facts.ioctl_driver_version = ioctl_version->empty() ? Nullable<std::string>() : Nullable<std::string>(*ioctl_version);
    facts.ioctl_answered = !ioctl_version->empty();
    layer.source(&DeviceNodesFacts::ioctl_driver_version, "ioctl NV_ESC_CHECK_VERSION_STR on /dev/nvidiactl");
    layer.source(&DeviceNodesFacts::ioctl_answered, "ioctl NV_ESC_CHECK_VERSION_STR on /dev/nvidiactl");
  }
  const auto count = facts.nodes.size();
  if (count == 0) {
    layer.summary = "no NVIDIA device nodes";
  } else {
    layer.status = Status::ok;
    layer.summary = std::to_string(count) + " device node(s)" + (facts.dxg_present ? " (/dev/dxg)" : "") +
                    (ioctl_version && !ioctl_version->empty() ? ", driver answers " + *ioctl_version : "");
  }
}

}  // namespace gd
