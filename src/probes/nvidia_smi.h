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
#include <vector>

namespace gd {

inline constexpr std::chrono::milliseconds k_nvidia_smi_deadline{5000};

// list_processes: where NVML is not asked, the compute processes of each GPU
// in an Exclusive compute mode (who keeps it busy), one more call only then.
NvidiaSmiFacts run_nvidia_smi(ChildEvidence& children, const std::string& program,
                              std::chrono::milliseconds deadline = k_nvidia_smi_deadline, bool list_processes = false);

// `--query-compute-apps=gpu_bus_id,pid,process_name,used_memory` lines, onto
// the GPUs of facts by bus id.
void add_compute_apps(std::string_view csv, NvidiaSmiFacts& facts);

// What run_nvidia_smi asks where the driver answers: the query, then
// `--version` (for its CUDA version and its own release), to be asked ahead.
std::vector<ChildRequest> nvidia_smi_requests(const std::string& program, std::chrono::milliseconds deadline = k_nvidia_smi_deadline);

// "12.4" from the banner of plain `nvidia-smi` ("... CUDA Version: 12.4 |",
// from R610 "CUDA UMD Version: 13.3").
std::optional<std::string> cuda_version_in_header(std::string_view text);

// The banner's three versions: "NVIDIA-SMI 550.54.15  Driver Version: 550.54.15
// CUDA Version: 12.4" (from R610: "KMD Version:", "CUDA UMD Version:").
struct NvidiaSmiBanner {
  std::optional<std::string> own_version, driver_version, cuda_version;
};
NvidiaSmiBanner parse_banner(std::string_view text);

// The same three from `nvidia-smi --version` ("NVIDIA-SMI version  : 580.95.05",
// "DRIVER version      : 580.95.05", "CUDA Version        : 13.0"; "KMD" and
// "CUDA UMD" are taken as the banner's R610 names); nullopt unless all three are there.
std::optional<NvidiaSmiBanner> parse_version_answer(std::string_view text);

// "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error",
// "... for GPU0000:3B:00.0: GPU is lost. Reboot the system ...": the GPU and why.
std::optional<SmiLostGpu> parse_lost_gpu_line(std::string_view line);

// "0000:1b:00.0", as sysfs names the function, from nvidia-smi's "00000000:1B:00.0".
std::string sysfs_pci_address(std::string_view bus_id);

// One CSV line of the query below: "[N/A]" and "[Not Supported]" become empty.
SmiGpu parse_smi_gpu_line(std::string_view line, bool with_compute_cap);

}  // namespace gd
