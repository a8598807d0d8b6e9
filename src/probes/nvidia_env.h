#pragma once
// The NVIDIA Container Toolkit's environment variables, parsed the way the
// toolkit parses them (nvidia-container-toolkit internal/config/image: devices and capabilities).

#include "facts/container_facts.h"

#include <string_view>

#include <optional>
#include <string>

namespace gd {

// What the device plugin's volume-mounts strategy puts in NVIDIA_VISIBLE_DEVICES
// (nvidia-container-toolkit internal/config/image: volumeMountDevicePrefix).
inline constexpr std::string_view k_volume_mount_devices = "/var/run/nvidia-container-devices";

// NVIDIA_VISIBLE_DEVICES. Unset or empty means void; "void" anywhere wins.
// Entries of no selector form are listed as invalid.
VisibleDevices parse_visible_devices(const std::optional<std::string>& value);

// NVIDIA_DRIVER_CAPABILITIES. Unset or empty means utility,compute; "all"
// means every capability.
DriverCapabilities parse_driver_capabilities(const std::optional<std::string>& value);

// What the toolkit injects for a set of capabilities (legacy path, 1.3/1.4).
ExpectedInjection expected_injection(const DriverCapabilities& capabilities);

}  // namespace gd
