#pragma once
// Layer 1, hardware: the NVIDIA PCI functions in sysfs (GPUs; NVSwitch
// bridges apart), their kernel driver binding, PCIe link and NUMA node.

#include "probes/probe_context.h"

namespace gd {

Probed<HardwareFacts> probe_hardware(ProbeContext& context);

// The kernel driver bound to a sysfs device directory (its `driver` link's
// last component, escaped), or nullopt when none is bound. PCI functions and
// platform devices (a Jetson's GPU) alike.
std::optional<std::string> bound_driver(Host& host, const std::string& device_dir);

// The kind of a driver name as sysfs writes it, compared without case.
DriverKind driver_kind(std::string_view driver);

}  // namespace gd
