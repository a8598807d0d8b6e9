#pragma once
// The NVIDIA Container Toolkit's environment variables, parsed the way the
// toolkit parses them (nvidia-container-toolkit internal/config/image: devices and capabilities).

#include <boost/json.hpp>

#include <string_view>

#include <optional>
#include <string>

namespace gd {

// What the device plugin's volume-mounts strategy puts in NVIDIA_VISIBLE_DEVICES
// (nvidia-container-toolkit internal/config/image: volumeMountDevicePrefix).
inline constexpr std::string_view k_volume_mount_devices = "/var/run/nvidia-container-devices";

// NVIDIA_VISIBLE_DEVICES: {"set", "value", "mode": unset|empty|void|none|all|list,
// "entries": [{"value", "kind": index|gpu-uuid|mig-uuid|mig-index|bus-id|cdi|unknown}],
// "invalid": [...]}. Unset or empty means void; "void" anywhere wins.
boost::json::object parse_visible_devices(const std::optional<std::string>& value);

// NVIDIA_DRIVER_CAPABILITIES: {"set", "value", "effective": [...], "invalid": [...]}.
// Unset or empty means utility,compute; "all" means every capability.
boost::json::object parse_driver_capabilities(const std::optional<std::string>& value);

// What the toolkit injects for a set of capabilities (legacy path, 1.3/1.4).
boost::json::object expected_injection(const boost::json::array& capabilities);

}  // namespace gd
