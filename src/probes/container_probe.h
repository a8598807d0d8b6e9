#pragma once
// Layer 3, container: are we in a container and which engine, how the NVIDIA
// Container Toolkit injected the GPU (legacy hook, CDI, or not at all), and
// what NVIDIA_VISIBLE_DEVICES and NVIDIA_DRIVER_CAPABILITIES ask for.
// On a host the layer is skip.

#include "probes/probe_context.h"

namespace gd {

Probed<ContainerFacts> probe_container(ProbeContext& context);

// The answers it asked ahead: what the running dockerd loaded, taken once
// the layers above were read (its GET /info runs beside them).
void finish_container(ProbeContext& context, Probed<ContainerFacts>& layer);

}  // namespace gd
