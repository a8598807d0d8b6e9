#pragma once
// The GPU Operator's driver container, seen from its node: the driver's
// libraries and nvidia-smi live in the container's root, bind-mounted at
// /run/nvidia/driver, and nowhere on the host itself.

#include "facts/driver_libs_facts.h"
#include "host/host.h"

#include <optional>

namespace gd {

// nullopt where /run/nvidia/driver does not exist (no operator-managed driver).
std::optional<DriverContainerFacts> find_driver_container(Host& host);

}  // namespace gd
