#pragma once
// Layer 1, hardware: the NVIDIA PCI functions in sysfs (GPUs; NVSwitch
// bridges apart), their kernel driver binding, PCIe link and NUMA node.

#include "probes/probe_context.h"

namespace gd {

Probed<HardwareFacts> probe_hardware(ProbeContext& context);

}  // namespace gd
