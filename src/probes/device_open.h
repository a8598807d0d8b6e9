#pragma once
// Opening NVIDIA device nodes, as child evidence: one child opens each node
// in turn (and asks /dev/nvidiactl for the driver's version), so a wedged
// GPU costs one deadline, never our own process. Each node is opened at most
// once per run, and only a character device whose numbers are NVIDIA's.

#include "host/host.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct DeviceOpenResult {
  std::string path;
  std::optional<std::string> open;            // "ok" or an errno name; unset: not tried
  std::optional<std::string> driver_version;  // the version ioctl's answer ("" from drivers before 530.30.02)
  std::optional<std::string> ioctl_error;     // the version ioctl failed with this errno name
};

inline constexpr std::chrono::milliseconds k_device_open_deadline{5000};

// Opens paths (already known to be NVIDIA character devices) through the
// host's child evidence. A node whose open outlives the deadline is
// ETIMEDOUT, and the nodes after it are asked again in a fresh child.
std::vector<DeviceOpenResult> open_device_nodes(ChildEvidence& children, const std::vector<std::string>& paths,
                                                std::chrono::milliseconds deadline = k_device_open_deadline);

// open_device_nodes's first child, asked ahead (none for no paths).
void open_device_nodes_ahead(ChildEvidence& children, const std::vector<std::string>& paths,
                             std::chrono::milliseconds deadline = k_device_open_deadline);

}  // namespace gd
