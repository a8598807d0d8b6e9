#pragma once
// Layer 3, container: the runtime, the toolkit's injection and its variables.

#include "model/fact_fields.h"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace gd {

struct ContainerFacts {
  bool in_container = false;
  Nullable<std::string> runtime;
  std::vector<std::string> markers;
  boost::json::object expected_injection;
  bool gpu_requested = false;
  boost::json::object visible_devices, driver_capabilities, require;
  std::optional<std::string> injection;  // in a container only
  std::optional<std::vector<std::string>> injection_evidence;
  std::optional<bool> gpu_nodes_present;

  template <class F>
  void fields(F& f) const {
    f("in_container", in_container, "any container marker found");
    f("runtime", runtime, "kubernetes, podman, docker, containerd, lxc, ...");
    f("markers", markers, "what gave the container away (/.dockerenv, /proc/self/cgroup, env)");
    f("expected_injection", expected_injection, "what NVIDIA_DRIVER_CAPABILITIES makes the toolkit inject");
    f("gpu_requested", gpu_requested, "NVIDIA_VISIBLE_DEVICES is all or a list");
    f("visible_devices", visible_devices,
      "NVIDIA_VISIBLE_DEVICES: mode (unset, empty, void, none, all, list, volume-mounts; CDI specs set void on purpose), entries[] (index, gpu-uuid, mig-uuid, "
      "mig-index, bus-id, cdi, volume-mount), invalid[]");
    f("driver_capabilities", driver_capabilities, "NVIDIA_DRIVER_CAPABILITIES: effective[], invalid[]; unset means utility,compute");
    f("require", require,
      "NVIDIA_REQUIRE_* (or CUDA_VERSION) evaluated as nvidia-container-cli does: satisfied, failed, required_cuda (of a failed check), requested_cuda (what is asked, met or not), mvc_would_run");
    f("injection", injection, "legacy (a tmpfs /proc/driver/nvidia), cdi, unknown (nodes without toolkit traces) or none");
    f("injection_evidence", injection_evidence, "what the injection was recognised by");
    f("gpu_nodes_present", gpu_nodes_present, "/dev/nvidiactl or /dev/dxg exists");
  }
};

}  // namespace gd
