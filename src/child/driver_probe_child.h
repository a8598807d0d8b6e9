#pragma once
// The driver probe, the child side: `gpudoctor __child driver-probe cuda
// [smoke]` or `... driver-probe nvml`. It dlopens libcuda.so.1 or
// libnvidia-ml.so.1 by those plain names, in the environment the user's
// programs have, and asks the driver what a program would ask. It prints one
// JSON object a line, flushed at once, and announces each call that may hang
// or crash ({"begin":"cuInit"}) before making it: when the parent finds the
// child killed or stuck, the last announced step says where.
//
// Only this process ever loads the driver; gpudoctor itself never does.

#include <string>
#include <vector>

namespace gd {

// args after "driver-probe": "cuda" [ "smoke" ] or "nvml" [ "table" ]. Returns the exit status.
int driver_probe_child(const std::vector<std::string>& args);

}  // namespace gd
