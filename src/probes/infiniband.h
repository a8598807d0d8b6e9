#pragma once
// InfiniBand and RoCE ports from /sys/class/infiniband: what a multi-node job's
// NCCL traffic rides on, read as the kernel's RDMA core shows it.

#include "facts/hardware_facts.h"
#include "host/host.h"

#include <vector>

namespace gd {

// Each device's ports, at most k_max_ib_ports; empty where the class is absent.
std::vector<IbPort> read_ib_ports(Host& host);

}  // namespace gd
