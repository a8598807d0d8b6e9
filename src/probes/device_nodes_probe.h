#pragma once
// Layer 4, device-nodes: /dev/nvidiactl, /dev/nvidiaN, /dev/nvidia-uvm(-tools),
// /dev/nvidia-modeset, /dev/nvidia-caps/*, /dev/nvidia-nvswitch*, /dev/dxg:
// present, the right kind and numbers, allowed to this user by their mode
// bits, and really openable (a device cgroup can refuse what the mode allows).
// The driver's own version comes from the version ioctl on /dev/nvidiactl.

#include "probes/probe_context.h"

namespace gd {

// The walk of /dev; the opens are asked ahead (context.driver_answers).
Probed<DeviceNodesFacts> probe_device_nodes(ProbeContext& context);

// The opens' answers and what follows from them (the ioctl's version, the
// workload's allocation), once the layers above were read.
void finish_device_nodes(ProbeContext& context, Probed<DeviceNodesFacts>& layer);

}  // namespace gd
