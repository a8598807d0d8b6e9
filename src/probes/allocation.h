#pragma once
// The workload's view (facts/allocation_facts.h): which GPUs a scheduler gave
// this process, read from what the scheduler itself sets, and which GPU nodes
// open. Slurm (SchedMD/slurm gres_common_gpu_set_env, task/cgroup
// ConstrainDevices) and the NVIDIA device plugin (NVIDIA_VISIBLE_DEVICES of
// the GPUs it allocated) are the allocators known.

#include "facts/container_facts.h"
#include "facts/device_nodes_facts.h"
#include "host/host.h"

#include <vector>

namespace gd {

// Reads the allocation and marks each /dev/nvidiaN node it can place as
// allocated or not. Call after the nodes' opens are known.
AllocationFacts read_allocation(Host& host, const ContainerFacts& container, std::vector<NodeFacts>& nodes);

}  // namespace gd
