#pragma once
// Layer 4, device-nodes: /dev/nvidia*, /dev/dxg, and what CUDA_VISIBLE_DEVICES selects.

#include "facts/allocation_facts.h"
#include "util/enum_names.h"
#include "model/fact_fields.h"
#include "util/file_type.h"
#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// What a node's mode bits let this user do.
enum class NodeAccess { r, w, rw, none };
template <>
struct EnumTable<NodeAccess> {
  static constexpr std::array names{"r", "w", "rw", "none"};
};

struct NodeFacts {
  std::string path;
  FileType type = FileType::other;  // a char device, or a wrong kind
  std::int64_t major = 0, minor = 0;
  std::string mode;  // "0666"
  std::int64_t uid = 0, gid = 0;
  bool required = false;
  NodeAccess access = NodeAccess::none;
  Nullable<std::string> open;  // ok or an errno name; null: not tried
  bool wrong_number = false;
  std::optional<std::string> expected;  // "195:255", "510:any"
  std::optional<bool> allocated;        // a GPU node: given to this workload, where the allocation says
  std::optional<std::string> nodev_mount;

  template <class F>
  void fields(F& f) const {
    f("path", path, "the node");
    f("source", path, "the node (for evidence)");
    f("type", type, "char, or a wrong kind");
    f("major", major, "device major");
    f("minor", minor, "device minor");
    f("mode", mode, "permission bits, 0666", FreeText{});
    f("uid", uid, "owner");
    f("gid", gid, "group");
    f("required", required, "CUDA needs it");
    f("access", access, "what the mode bits allow this user");
    f("open", open, "ok or the errno name of opening it in a child; null: not tried (under --root, or not NVIDIA's)", read_outcome_names());
    f("wrong_number", wrong_number, "a character device with other numbers than the driver's");
    f("expected", expected, "major:minor it should have");
    f("allocated", allocated,
      "a /dev/nvidiaN node: true if the workload's allocation gives it this GPU, false if not (refused by design); absent when unknown");
    f("nodev_mount", nodev_mount, "opening it was refused with EACCES, and the mount it lies on (this mount point, /proc/self/mountinfo) has nodev");
  }
};

struct MissingGpuNode {
  std::string path, bdf;
  std::int64_t minor = 0;

  template <class F>
  void fields(F& f) const {
    f("path", path, "/dev/nvidia<minor>");
    f("bdf", bdf, "the claimed GPU");
    f("minor", minor, "its Device Minor");
  }
};

struct CudaVisibleDevices {
  std::string value;
  std::int64_t selected = 0, gpu_count = 0, mig_entries = 0;
  Nullable<std::string> stopped_at;

  template <class F>
  void fields(F& f) const {
    f("value", value, "the variable, escaped");
    f("selected", selected, "entries CUDA will enumerate");
    f("gpu_count", gpu_count, "GPUs it chooses from");
    f("stopped_at", stopped_at, "the first entry that names no GPU: CUDA reads no further");
    f("mig_entries", mig_entries, "MIG entries (only one is ever used per process)");
  }
};

// Who makes a missing or wrongly numbered NVIDIA node when a program first
// opens the driver. libcuda and NVML carry nvidia-modprobe's code: they
// create or replace the node themselves where the caller may mknod, else run
// the setuid /usr/bin/nvidia-modprobe; the module's ModifyDeviceFiles=0
// forbids both. In a container the device cgroup decides, which no file shows.
enum class NodeRepair { this_caller, nvidia_modprobe, nobody, unknown };
template <>
struct EnumTable<NodeRepair> {
  static constexpr std::array names{"this-caller", "nvidia-modprobe", "nobody", "unknown"};
};

struct DeviceNodesFacts {
  bool nvidiactl_present = false, uvm_present = false, dxg_present = false;
  std::int64_t gpu_node_count = 0;
  std::vector<std::int64_t> gpu_minors;
  std::optional<Nullable<std::string>> ioctl_driver_version;
  std::optional<bool> ioctl_answered;
  std::optional<std::string> ioctl_error;
  std::vector<MissingGpuNode> missing_gpu_nodes;
  bool nodes_expected = false;
  std::vector<NodeFacts> nodes;
  std::optional<CudaVisibleDevices> cuda_visible_devices;
  AllocationFacts allocation;
  std::optional<bool> caller_may_mknod;
  NodeRepair node_repair = NodeRepair::unknown;

  std::optional<std::int64_t> integrated_gpu_nodes;  // on a Jetson only
  std::optional<bool> nvmap_present;

  template <class F>
  void fields(F& f) const {
    f("nvidiactl_present", nvidiactl_present, "/dev/nvidiactl exists");
    f("uvm_present", uvm_present, "/dev/nvidia-uvm exists");
    f("dxg_present", dxg_present, "/dev/dxg exists (WSL2)");
    f("gpu_node_count", gpu_node_count, "/dev/nvidiaN nodes");
    f("gpu_minors", gpu_minors, "their N");
    f("ioctl_driver_version", ioctl_driver_version,
      "the version ioctl's answer on /dev/nvidiactl; null when the driver (before 530.30.02) did not answer");
    f("ioctl_answered", ioctl_answered, "the ioctl returned a version");
    f("ioctl_error", ioctl_error, "the errno name of a failed version ioctl");
    f("missing_gpu_nodes", missing_gpu_nodes, "claimed GPUs without their node (hosts only)");
    f("nodes_expected", nodes_expected, "a driver should be reachable here: module loaded, gVisor, or a container");
    f("integrated_gpu_nodes", integrated_gpu_nodes, "Jetson (nvgpu): /dev/nvmap and the GPU's nvhost/nvgpu nodes present");
    f("nvmap_present", nvmap_present, "Jetson: /dev/nvmap, which CUDA allocates memory through");
    f("nodes", nodes, "every NVIDIA node found");
    f("cuda_visible_devices", cuda_visible_devices, "what CUDA will enumerate for CUDA_VISIBLE_DEVICES, when set");
    f("caller_may_mknod", caller_may_mknod, "this process has CAP_MKNOD (CapEff of /proc/self/status): it may create device nodes");
    f("node_repair", node_repair,
      "who makes a missing or misnumbered NVIDIA node when libcuda or NVML first open the driver: this-caller (CAP_MKNOD, "
      "outside a container), nvidia-modprobe (setuid root), nobody (neither, or ModifyDeviceFiles=0), unknown (a container's "
      "device cgroup decides)");
    f("allocation", allocation, "the workload's view: which GPUs a scheduler gave this process, against which nodes open");
  }
};

}  // namespace gd
