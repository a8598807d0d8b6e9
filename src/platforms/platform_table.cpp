#include "platforms/machine_platform.h"

#include "util/text.h"

namespace gd {

// One file each; an `extern const` definition there is visible here.
extern const PlatformMethod wsl2_platform, wsl1_platform, gvisor_platform, linux_platform;

namespace {

// WSL2 before WSL1: both kernels say Microsoft, and only WSL2 has a GPU.
constexpr const PlatformMethod* k_platforms[] = {&wsl2_platform, &wsl1_platform, &gvisor_platform};

}  // namespace

std::span<const PlatformMethod* const> machine_platforms() { return k_platforms; }

const PlatformMethod& platform_method(Platform platform) {
  for (const PlatformMethod* method : k_platforms)
    if (method->platform == platform) return *method;
  return linux_platform;
}

PlatformDetection detect_machine_platform(Host& host, std::string_view release) {
  const PlatformClues clues{host, to_lower(release)};
  for (const PlatformMethod* method : k_platforms)
    if (auto evidence = method->detect(clues)) return {method->platform, std::move(evidence)};
  return {};
}

}  // namespace gd
