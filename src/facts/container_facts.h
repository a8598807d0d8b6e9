#pragma once
// Layer 3, container: the runtime, the toolkit's injection and its variables.

#include "facts/engine_config_facts.h"
#include "model/fact_fields.h"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace gd {

// NVIDIA_VISIBLE_DEVICES as the toolkit reads it. void_ is "void": no GPU,
// on purpose (CDI specs set it); unset and empty mean the same to the toolkit.
// What NVIDIA_DRIVER_CAPABILITIES can name ("all" is every one of them).
enum class DriverCapability { compute, compat32, graphics, utility, video, display, ngx };
template <>
struct EnumTable<DriverCapability> {
  static constexpr std::array names{"compute", "compat32", "graphics", "utility", "video", "display", "ngx"};
};

// The engines gpudoctor recognises (src/platforms/, one file each), by the
// name container= and their markers use; other: a container= name none of them.
enum class ContainerRuntime { kubernetes, podman, docker, containerd, enroot, apptainer, singularity, lxd, incus, lxc, other };
template <>
struct EnumTable<ContainerRuntime> {
  static constexpr std::array names{"kubernetes", "podman", "docker", "containerd", "enroot", "apptainer", "singularity", "lxd", "incus", "lxc", "other"};
};

enum class VisibleMode { unset, empty, void_, none, all, list, volume_mounts };
template <>
struct EnumTable<VisibleMode> {
  static constexpr std::array names{"unset", "empty", "void", "none", "all", "list", "volume-mounts"};
};

// The selector forms nvidia-container-cli accepts, plus CDI names and the
// device plugin's volume-mount entries.
enum class SelectorKind { index, gpu_uuid, mig_uuid, mig_index, bus_id, cdi, volume_mount };
template <>
struct EnumTable<SelectorKind> {
  static constexpr std::array names{"index", "gpu-uuid", "mig-uuid", "mig-index", "bus-id", "cdi", "volume-mount"};
};

// How the GPU got into the container: csv is the toolkit's Jetson mode,
// which mounts what host-files-for-container.d lists.
enum class Injection { legacy, cdi, unknown, none, csv, apptainer_nv };
template <>
struct EnumTable<Injection> {
  static constexpr std::array names{"legacy", "cdi", "unknown", "none", "csv", "apptainer-nv"};
};

struct DeviceSelector {
  std::string value;
  SelectorKind kind = SelectorKind::index;

  template <class F>
  void fields(F& f) const {
    f("value", value, "the entry as written (escaped, at most 60 characters)");
    f("kind", kind, "which selector form it is");
  }
};

struct VisibleDevices {
  bool set = false;
  std::optional<std::string> value{};
  VisibleMode mode = VisibleMode::unset;
  std::optional<std::vector<DeviceSelector>> entries{};  // list, all, none, void and volume-mounts
  std::optional<std::vector<std::string>> invalid{};

  bool requests_gpu() const { return mode == VisibleMode::all || mode == VisibleMode::list || mode == VisibleMode::volume_mounts; }

  template <class F>
  void fields(F& f) const {
    f("set", set, "the variable is set");
    f("value", value, "its value (escaped, at most 200 characters)");
    f("mode", mode, "what it asks for; CDI specs set void on purpose");
    f("entries", entries, "the devices it names (at most 64; volume-mounts: the entries below the directory)");
    f("invalid", invalid, "entries of no selector form, each once (at most 8, then a marker)");
  }
};

struct DriverCapabilities {
  bool set = false;
  std::optional<std::string> value{};
  std::vector<std::string> effective{};
  std::vector<std::string> invalid{};

  bool has(std::string_view capability) const {
    for (const auto& known : effective)
      if (known == capability) return true;
    return false;
  }

  template <class F>
  void fields(F& f) const {
    f("set", set, "the variable is set");
    f("value", value, "its value (escaped, at most 200 characters)");
    f("effective", effective, "the capabilities the toolkit acts on (unset or empty: utility, compute; all: every one)",
      name_list<DriverCapability>());
    f("invalid", invalid, "names the toolkit does not know");
  }
};

// What the toolkit's legacy path injects for the effective capabilities.
struct ExpectedInjection {
  std::vector<std::string> device_nodes{}, libraries{}, binaries{};

  template <class F>
  void fields(F& f) const {
    f("device_nodes", device_nodes, "device nodes it creates");
    f("libraries", libraries, "driver libraries it mounts");
    f("binaries", binaries, "driver programs it mounts");
  }
};

// NVIDIA_REQUIRE_* (or CUDA_VERSION) evaluated as nvidia-container-cli does.
struct Requirements {
  bool set = false;
  std::optional<bool> disabled{};
  std::optional<boost::json::object> variables{};  // keyed by variable name, an open set
  std::optional<bool> satisfied{};
  std::optional<std::vector<std::string>> failed{};
  std::optional<std::vector<std::string>> invalid{};
  std::optional<std::string> required_cuda{};
  std::optional<std::string> requested_cuda{};
  std::optional<bool> mvc_would_run{};

  template <class F>
  void fields(F& f) const {
    f("set", set, "some requirement is set (NVIDIA_REQUIRE_*, or CUDA_VERSION alone)");
    f("disabled", disabled, "NVIDIA_DISABLE_REQUIRE is true (Go's ParseBool spellings)");
    f("variables", variables, "each variable checked and its value");
    f("satisfied", satisfied, "every variable holds for every visible GPU");
    f("failed", failed, "the variables that do not hold");
    f("invalid", invalid, "factors the toolkit cannot parse");
    f("required_cuda", required_cuda, "the cuda>= of the first variable that failed");
    f("requested_cuda", requested_cuda, "the first cuda>= asked for, met or not");
    f("mvc_would_run", mvc_would_run, "a failed cuda>= would still run through minor-version compatibility");
  }
};

// nvidia-cdi-refresh (nvidia-container-toolkit 1.18+): a path unit that
// regenerates /var/run/cdi/nvidia.yaml when a driver is installed.
enum class CdiRefresh { enabled, installed, absent };
template <>
struct EnumTable<CdiRefresh> {
  static constexpr std::array names{"enabled", "installed", "absent"};
};

// nvidia-cdi-refresh.service's ExecCondition, which greps modules.dep.
struct CdiRefreshGuard {
  std::string condition;          // as systemd runs it, escaped
  std::optional<bool> matches;    // grep finds the nvidia module; unknown where not judged
  bool enabled = false;           // the service or its .path starts at boot

  template <class F>
  void fields(F& f) const {
    f("condition", condition, "its ExecCondition, a grep of the running kernel's modules.dep, as systemd runs it (escaped)");
    f("matches", matches,
      "grep finds a line: the service runs; false: systemd skips it and the spec is never written; unset where gpudoctor cannot judge the pattern or read modules.dep");
    f("enabled", enabled, "nvidia-cdi-refresh.service or .path is enabled (starts at boot)");
  }
};

// A CDI spec the engines would read (/etc/cdi, /var/run/cdi) of an NVIDIA kind.
struct CdiSpecFacts {
  std::string path{};
  std::optional<std::string> kind{}, problem{};
  std::vector<std::string> devices{};  // the first 16 device names
  std::int64_t device_count = 0;
  Nullable<std::string> driver_version{};
  std::vector<std::string> missing_host_paths{};  // the first 16
  std::int64_t missing_count = 0;
  std::vector<std::string> missing_mounts{};         // in a container: the first 16
  std::int64_t missing_mount_count = 0;
  std::vector<std::string> stale_node_numbers{};  // the first 16
  std::int64_t stale_node_count = 0;
  bool unreadable_here = false;
  std::optional<std::string> private_mode{};

  template <class F>
  void fields(F& f) const {
    f("path", path, "the spec file");
    f("source", path, "the spec file (for evidence)");
    f("kind", kind, "nvidia.com/gpu, ...");
    f("problem", problem, "why it cannot be read as a CDI spec (engines refuse it too)");
    f("devices", devices, "the device names it offers (the first 16): 0, GPU-<uuid>, all");
    f("device_count", device_count, "how many devices it offers");
    f("driver_version", driver_version, "the driver it was generated for: the version of the libcuda.so it mounts");
    f("missing_host_paths", missing_host_paths, "host paths it mounts or needs that do not exist (the first 16)");
    f("missing_count", missing_count, "how many such paths");
    f("missing_mounts", missing_mounts,
      "in a container: where the spec mounts files for every device (containerPath) and nothing is (the first 16)");
    f("missing_mount_count", missing_mount_count, "how many such container paths");
    f("stale_node_numbers", stale_node_numbers,
      "on a host: device nodes whose numbers the spec pins (deviceNodes' major, minor) and that differ from the host's node, as 'PATH M:N (here M:N)' (the first 16)");
    f("stale_node_count", stale_node_count, "how many such nodes");
    f("unreadable_here", unreadable_here,
      "this user may not read it (EACCES; an NVIDIA spec by its name): nothing else of it is known, and a rootless engine run by this user cannot read it either");
    f("private_mode", private_mode,
      "its mode (0600), where others than its owner and group may not read it: read here, but not by a rootless engine another user runs", FreeText{});
  }
};

struct ContainerFacts {
  bool in_container = false;
  Nullable<ContainerRuntime> runtime;
  std::optional<std::string> runtime_named;  // runtime other: the name container= gave
  std::vector<std::string> markers;
  std::vector<std::string> discounted_markers;
  std::optional<std::string> own_root;
  ExpectedInjection expected_injection;
  bool gpu_requested = false;
  VisibleDevices visible_devices;
  DriverCapabilities driver_capabilities;
  Requirements require;
  std::optional<Injection> injection;  // in a container only
  std::optional<std::vector<std::string>> injection_evidence;
  std::optional<bool> gpu_nodes_present;
  std::optional<bool> user_namespace, rootless;
  std::optional<std::string> uid_map;
  std::optional<std::vector<std::string>> apptainer_libs;  // Apptainer/Singularity only
  std::optional<std::vector<CdiSpecFacts>> cdi_specs;
  std::optional<CdiRefresh> cdi_refresh;  // where there are specs
  std::optional<CdiRefreshGuard> cdi_refresh_guard;  // on a host whose toolkit installed the service
  std::optional<bool> apptainer_libs_on_path;
  std::optional<EngineFacts> engines;  // on a host, where an engine is configured

  template <class F>
  void fields(F& f) const {
    f("in_container", in_container, "any container marker found");
    f("runtime", runtime, "the engine whose marker says most (src/platforms/ has one file per engine); other: PID 1's or this process's container= names none of them");
    f("runtime_named", runtime_named, "runtime other: the manager container= names (systemd-nspawn, ...; escaped, at most 40 characters)");
    f("markers", markers, "what gave the container away (/.dockerenv, /proc/self/cgroup, env)");
    f("discounted_markers", discounted_markers,
      "container markers the rest of the evidence outweighs: /.dockerenv alone where / is a disk's own file system (a VM or host built from a container image)");
    f("own_root", own_root, "why the markers were discounted: / is the whole file system of a disk, as no engine mounts a container's root");
    f("expected_injection", expected_injection, "what NVIDIA_DRIVER_CAPABILITIES makes the toolkit inject");
    f("gpu_requested", gpu_requested, "NVIDIA_VISIBLE_DEVICES is all or a list");
    f("visible_devices", visible_devices, "NVIDIA_VISIBLE_DEVICES, parsed as the toolkit parses it");
    f("driver_capabilities", driver_capabilities, "NVIDIA_DRIVER_CAPABILITIES, parsed as the toolkit parses it");
    f("require", require, "NVIDIA_REQUIRE_* (or CUDA_VERSION) evaluated as nvidia-container-cli does");
    f("injection", injection, "how the GPU got in: legacy (a tmpfs /proc/driver/nvidia: nvidia-container-cli, also behind apptainer --nvccli and LXD's nvidia.runtime), cdi, csv (Jetson: L4T files mounted), apptainer-nv (--nv bound the host's libraries into /.singularity.d/libs), unknown (nodes without toolkit traces), none");
    f("injection_evidence", injection_evidence, "what the injection was recognised by");
    f("user_namespace", user_namespace, "/proc/self/uid_map maps less than the whole id range: a user namespace (rootless engines, LXD)");
    f("uid_map", uid_map, "its first line: inside-id outside-id count");
    f("rootless", rootless, "podman's /run/.containerenv says rootless=1");
    f("apptainer_libs", apptainer_libs, "Apptainer: what --nv bound into /.singularity.d/libs (at most 64 names)");
    f("apptainer_libs_on_path", apptainer_libs_on_path, "Apptainer: LD_LIBRARY_PATH still names /.singularity.d/libs, as the image's 99-base.sh sets it");
    f("cdi_specs", cdi_specs, "NVIDIA CDI specs in /etc/cdi and /var/run/cdi, as podman, containerd and Docker read them");
    f("cdi_refresh", cdi_refresh, "nvidia-cdi-refresh.path, which regenerates /var/run/cdi/nvidia.yaml after a driver upgrade");
    f("cdi_refresh_guard", cdi_refresh_guard,
      "on a host: nvidia-cdi-refresh.service's ExecCondition, where it greps modules.dep, and whether it lets the service run");
    f("engines", engines, "on a host: how its container engines are configured to start GPU containers (Docker, containerd, the NVIDIA Container Toolkit)");
    f("gpu_nodes_present", gpu_nodes_present, "/dev/nvidiactl, /dev/dxg or (Jetson) /dev/nvmap exists");
  }
};

}  // namespace gd
