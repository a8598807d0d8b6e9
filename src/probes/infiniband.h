#pragma once
// InfiniBand and RoCE ports from /sys/class/infiniband: what a multi-node job's
// NCCL traffic rides on, read as the kernel's RDMA core shows it.

#include "facts/hardware_facts.h"
#include "host/host.h"

#include <vector>

namespace gd {

struct IbPortsRead {
  std::vector<IbPort> ports;
  bool cut = false;  // more ports than gpudoctor keeps (SR-IOV hosts list every VF)
};

// Each device's ports, at most 64; none where the class is absent.
IbPortsRead read_ib_ports(Host& host);

}  // namespace gd
