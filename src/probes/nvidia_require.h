#pragma once
// NVIDIA_REQUIRE_* evaluated exactly as the container toolkit's
// nvidia-container-cli does (NVIDIA/libnvidia-container src/cli/common.c and src/nvc_info.c):
// every variable must hold; inside one, space-separated terms are ORed and
// comma-separated factors ANDed; factors compare cuda, driver, arch or brand;
// the whole expression holds for every visible GPU. Because CDI and JIT-CDI
// mode skip this check, gpudoctor makes it instead.

#include "facts/container_facts.h"
#include "model/gpu_kinds.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gd {

struct RequireGpu {
  std::string arch;   // compute capability, "9.0"
  GpuBrand brand = GpuBrand::unknown;
};

struct RequireFacts {
  std::optional<std::string> driver;  // "550.54.15"
  std::optional<std::string> cuda;    // what the driver reports, "12.4"
  std::vector<RequireGpu> gpus;
};

// variables: every NVIDIA_REQUIRE_* (the JETPACK ones are skipped here);
// cuda_version: CUDA_VERSION, which implies cuda>=X.Y when no NVIDIA_REQUIRE_CUDA
// is set; disable: NVIDIA_DISABLE_REQUIRE.
Requirements evaluate_requirements(const std::vector<std::pair<std::string, std::string>>& variables,
                                          const std::optional<std::string>& cuda_version,
                                  const std::optional<std::string>& disable, const RequireFacts& facts);

}  // namespace gd
