#pragma once
// nvidia-smi, asked through the child runner: the driver's own account of
// its version and GPUs, and, when it fails, how (it cannot reach the driver,
// the library and module differ, it hangs, it crashes). Each outcome is
// evidence for the layer it names; a snapshot records the answer.

#include "facts/driver_libs_facts.h"
#include "host/host.h"

#include <chrono>
#include <string>
#include <string_view>

namespace gd {

inline constexpr std::chrono::milliseconds k_nvidia_smi_deadline{5000};

NvidiaSmiFacts run_nvidia_smi(ChildEvidence& children, const std::string& program,
                              std::chrono::milliseconds deadline = k_nvidia_smi_deadline);

// "12.4" from the banner of plain `nvidia-smi` ("... CUDA Version: 12.4 |").
std::optional<std::string> cuda_version_in_header(std::string_view text);

// One CSV line of the query below: "[N/A]" and "[Not Supported]" become empty.
SmiGpu parse_smi_gpu_line(std::string_view line, bool with_compute_cap);

}  // namespace gd
