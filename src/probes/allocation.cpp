#include "probes/allocation.h"

#include "util/text.h"

#include <algorithm>

namespace gd {
namespace {

constexpr std::size_t k_small = 64 * 1024;

bool is_gpu_node(const NodeFacts& node) {
  const std::string_view name = std::string_view(node.path).substr(std::min<std::size_t>(node.path.size(), 11));
  return node.path.starts_with("/dev/nvidia") && !name.empty() && std::all_of(name.begin(), name.end(), ::isdigit);
}

bool refused(const NodeFacts& node) {
  return node.access == NodeAccess::rw && node.open.value && (*node.open.value == "EPERM" || *node.open.value == "EACCES");
}

// "1,3" or "0-1,3" as Slurm writes a list; NoDevFiles (Slurm before 19.05) means none.
std::int64_t count_entries(std::string_view list) {
  std::int64_t count = 0;
  for (auto entry : split(list, ',')) {
    entry = trim(entry);
    if (entry.empty() || entry == "NoDevFiles") continue;
    const auto dash = entry.find('-');
    const auto low = parse_int(entry.substr(0, dash)), high = dash == std::string_view::npos ? low : parse_int(entry.substr(dash + 1));
    count += low && high && *high >= *low && *high - *low < 4096 ? *high - *low + 1 : 1;
  }
  return count;
}

// A Slurm job or step: its variables (slurmstepd's setup_env) or its cgroup
// (task/cgroup: /slurm/uid_U/job_J/... on v1, .../slurmstepd.scope/job_J/... on v2).
void read_slurm(Host& host, AllocationFacts& facts) {
  if (auto job = host.env("SLURM_JOB_ID")) {
    facts.job_id = printable(*job, 40);
    facts.evidence.push_back("env SLURM_JOB_ID=" + *facts.job_id);
  }
  if (auto cgroup = host.read_file("/proc/self/cgroup", k_small)) {
    for (auto line : lines(*cgroup))
      if (contains(line, "slurmstepd.scope/") || contains(line, "/slurm/uid_") || contains(line, "/slurm_")) {
        facts.evidence.push_back("/proc/self/cgroup: " + printable(line, 160));
        break;
      }
  }
  if (facts.evidence.empty()) return;
  facts.by = Allocator::slurm;
  // A step's own list first (srun), else the job's (the batch script, salloc's shell).
  for (const char* name : {"SLURM_STEP_GPUS", "SLURM_JOB_GPUS"})
    if (auto list = host.env(name)) {
      facts.gpus = printable(*list, 200);
      facts.gpu_count = count_entries(*list);
      facts.evidence.push_back(std::string("env ") + name + "=" + *facts.gpus);
      return;
    }
  if (auto count = host.env("SLURM_GPUS_ON_NODE"); count && parse_int(*count)) {
    facts.gpu_count = *parse_int(*count);
    facts.evidence.push_back("env SLURM_GPUS_ON_NODE=" + printable(*count, 20));
    return;
  }
  facts.gpu_count = 0;  // no GPU given: gres_common unsets every GPU variable
}

// A pod the device plugin gave GPUs: NVIDIA_VISIBLE_DEVICES names them (by
// UUID or index), or names the directory of its volume mounts.
void read_device_plugin(const ContainerFacts& container, AllocationFacts& facts) {
  if (container.runtime.value != ContainerRuntime::kubernetes) return;
  const auto& visible = container.visible_devices;
  if (visible.mode != VisibleMode::list && visible.mode != VisibleMode::volume_mounts) return;
  facts.by = Allocator::kubernetes;
  facts.gpus = visible.value;
  facts.gpu_count = visible.entries ? static_cast<std::int64_t>(visible.entries->size()) : 0;
  facts.evidence.push_back("env NVIDIA_VISIBLE_DEVICES=" + visible.value.value_or(""));
}

}  // namespace

AllocationFacts read_allocation(Host& host, const ContainerFacts& container, std::vector<NodeFacts>& nodes) {
  AllocationFacts facts;
  read_slurm(host, facts);
  if (facts.by == Allocator::none) read_device_plugin(container, facts);
  for (const auto& node : nodes) {
    if (!is_gpu_node(node)) continue;
    if (node.open.value && *node.open.value == "ok") ++facts.gpus_opened;
    else if (refused(node)) ++facts.gpus_refused;
  }
  if (facts.by == Allocator::none || !facts.gpu_count) return facts;
  facts.honoured = facts.gpus_opened >= *facts.gpu_count;
  // Every GPU given opens: the refused ones are those the allocator kept from
  // this workload. A job given none was given none of them.
  if (!*facts.honoured) return facts;
  for (auto& node : nodes) {
    if (!is_gpu_node(node)) continue;
    if (refused(node) || *facts.gpu_count == 0) node.allocated = false;
    else if (facts.gpus_opened == *facts.gpu_count) node.allocated = true;
  }
  return facts;
}

}  // namespace gd
