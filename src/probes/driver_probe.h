#pragma once
// The driver probe, the parent side: asks the child (child/driver_probe_child)
// to load libcuda.so.1 or libnvidia-ml.so.1 and turns its answer into facts.
// Whatever the child does — crash, hang, print garbage, exit in the middle —
// the parent gets an answer within the deadline and says what happened.

#include "facts/driver_probe_facts.h"
#include "host/host.h"

#include <chrono>

namespace gd {

// cuInit of eight GPUs without persistence mode takes seconds; a wedged one never ends.
inline constexpr std::chrono::milliseconds k_cuda_probe_deadline{20000};
inline constexpr std::chrono::milliseconds k_nvml_probe_deadline{10000};

// The requests run_cuda_probe and run_nvml_probe ask, to be asked ahead.
ChildRequest cuda_probe_request(bool smoke, std::chrono::milliseconds deadline);
// table: only what `gpudoctor gpus` shows (see child/driver_probe_parts.h).
ChildRequest nvml_probe_request(std::chrono::milliseconds deadline, bool table = false);
// The GPU table's NVML request, answered again for each line on the child's
// stdin from one nvmlInit (a ChildSession: `gpus --watch`).
ChildRequest nvml_table_session_request(std::chrono::milliseconds deadline);

CudaProbeFacts run_cuda_probe(ChildEvidence& children, bool smoke, std::chrono::milliseconds deadline = k_cuda_probe_deadline);
NvmlProbeFacts run_nvml_probe(ChildEvidence& children, std::chrono::milliseconds deadline = k_nvml_probe_deadline,
                              bool table = false);

// The answer alone, for tests and replays.
CudaProbeFacts parse_cuda_probe(const ChildAnswer& answer);
NvmlProbeFacts parse_nvml_probe(const ChildAnswer& answer);

}  // namespace gd
