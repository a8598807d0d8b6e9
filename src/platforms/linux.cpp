// Plain Linux: the machine's own kernel, its PCI bus and its nvidia module,
// with /dev/nvidia* where the module is loaded. What no other platform
// claims; never asked to detect itself.
#include "platforms/machine_platform.h"

namespace gd {

namespace {

std::optional<std::string> detect(const PlatformClues&) { return std::nullopt; }

}  // namespace

extern const PlatformMethod linux_platform{
    .platform = Platform::native_linux,
    .detect = detect,
    .own_kernel = true,
    .nodes = NodesExpected::where_loaded,
};

}  // namespace gd
