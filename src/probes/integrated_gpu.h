#pragma once
// Integrated GPUs on the platform bus (Jetson): the SoC from the device
// tree, the L4T release from /etc/nv_tegra_release, the GPU's platform
// device and its driver. The container toolkit decides "Tegra" the same way
// (go-nvlib: /etc/nv_tegra_release, or /sys/devices/soc0/family "tegra").

#include "facts/hardware_facts.h"
#include "probes/probe_context.h"

#include <optional>

namespace gd {

std::optional<IntegratedGpu> probe_integrated_gpu(ProbeContext& context, Probed<HardwareFacts>& notes);

// "# R36 (release), REVISION: 4.0, ..." -> "36.4.0"; nullopt when the line is not that.
std::optional<std::string> parse_tegra_release(std::string_view text);

}  // namespace gd
