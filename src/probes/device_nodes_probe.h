#pragma once
// Layer 4, device-nodes: /dev/nvidiactl, /dev/nvidiaN, /dev/nvidia-uvm(-tools),
// /dev/nvidia-modeset, /dev/nvidia-caps/*, /dev/nvidia-nvswitch*, /dev/dxg:
// present, the right kind and numbers, allowed to this user by their mode
// bits, and really openable (a device cgroup can refuse what the mode allows).
// The driver's own version comes from the version ioctl on /dev/nvidiactl.

#include "probes/probe_context.h"

namespace gd {

Probed<DeviceNodesFacts> probe_device_nodes(ProbeContext& context);

}  // namespace gd
