#pragma once
// The application layer's GPU code: which kernel image each GPU here gets
// from a framework's or a target's fatbin (SASS, PTX to JIT, or none), and
// what would give it one. Read from files only.

#include "facts/application_facts.h"
#include "formats/fatbin.h"
#include "probes/probe_context.h"
#include "tables/cuda_tables.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// Code for arch serves compute capability cc within its major, at an equal
// or higher minor: portable and family SASS (sm_86 on 8.9, not on 9.0), family PTX.
inline bool within_major(int arch, int cc) { return arch / 10 == cc / 10 && arch % 10 <= cc % 10; }

// Whether a PyTorch wheel index's builds carry SASS that runs on compute capability cc.
inline bool index_carries(const TorchIndexRow& row, int cc) {
  return std::any_of(row.sass.begin(), row.sass.end(), [cc](int sass) { return within_major(sass, cc); });
}

struct Gpu {
  std::string name;  // its address
  int arch = 0;      // 90 for 9.0
};

// The GPUs to judge against: PCI's view, or CUDA's where PCI is hidden (WSL2, some VMs).
std::vector<Gpu> gpus_of(const ProbeContext& context);

// The CUDA version the driver supports: the kernel module's, else cuInit's.
std::optional<std::string> driver_cuda_of(const ProbeContext& context);

// Reads file's fatbin (else the build info's architecture list) into
// framework and adds a GpuCodeCheck per GPU to facts.
void read_gpu_code(ProbeContext& context, FrameworkFacts& framework, const std::string& file,
                   const std::vector<std::string>& build_archs, ApplicationFacts& facts);

// The kernel image a GPU of compute capability cc gets from this code:
// sass, ptx-jit, ptx-needs-newer-driver or none. driver_cuda: what the driver supports.
// Portable SASS runs on its major at an equal or higher minor (family 'f'
// SASS likewise, within its family), 'a' SASS on its own capability only;
// PTX JIT-compiles for any later GPU (compute_NNf within the family,
// compute_NNa for its own capability only) when the driver knows its ISA.
GpuCodeCheck check_gpu_code(const FrameworkFacts& framework, const FatbinContents& code, const std::string& gpu, int cc,
                            const std::optional<std::string>& driver_cuda, const CudaTables& tables);

}  // namespace gd
