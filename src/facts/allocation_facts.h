#pragma once
// The workload's view: which GPUs this process is meant to use, and who
// decided it. Device nodes, permissions and cgroup refusals are judged
// against it: a GPU the scheduler did not give this job is refused by
// design, one it gave and that is refused is a fault.

#include "model/fact_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// none: nothing allocates GPUs here (a host, a plain container);
// slurm: a Slurm job or step (gres/gpu); kubernetes: a pod given GPUs by the
// NVIDIA device plugin (NVIDIA_VISIBLE_DEVICES of GPU ids, volume mounts, CDI).
enum class Allocator { none, slurm, kubernetes };
template <>
struct EnumTable<Allocator> {
  static constexpr std::array names{"none", "slurm", "kubernetes"};
};

struct AllocationFacts {
  Allocator by = Allocator::none;
  std::vector<std::string> evidence;
  std::optional<std::string> job_id, gpus;
  std::optional<std::int64_t> gpu_count;
  std::int64_t gpus_opened = 0, gpus_refused = 0;
  std::optional<bool> honoured;

  template <class F>
  void fields(F& f) const {
    f("by", by, "who decided which GPUs this process gets");
    f("evidence", evidence, "what said so: the scheduler's variables, the job's cgroup");
    f("job_id", job_id, "Slurm: SLURM_JOB_ID");
    f("gpus", gpus,
      "the GPUs given, as the allocator wrote them: Slurm's SLURM_STEP_GPUS (else SLURM_JOB_GPUS, global indices), "
      "the device plugin's NVIDIA_VISIBLE_DEVICES");
    f("gpu_count", gpu_count, "how many GPUs were given (0: none)");
    f("gpus_opened", gpus_opened, "/dev/nvidiaN nodes this process could open");
    f("gpus_refused", gpus_refused, "/dev/nvidiaN nodes whose open was refused (EPERM or EACCES although the mode allows it)");
    f("honoured", honoured, "every GPU given opens: the device cgroup lets through what was allocated");
  }
};

}  // namespace gd
