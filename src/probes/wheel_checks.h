#pragma once
// What the wheels installed beside a framework mean for it: the NVIDIA
// wheels torch pins against the ones installed, and whether CuPy's and JAX's
// CUDA plugins find the CUDA runtime they load at run time.

#include "facts/application_facts.h"
#include "loader/loader_config.h"
#include "probes/python_envs.h"
#include "probes/python_frameworks.h"

namespace gd {

void compare_wheel_pins(const FoundFramework& framework, const InstalledPackages& packages, ApplicationFacts& facts);
void check_package_runtimes(Host& host, const LoaderConfig& config, ApplicationFacts& facts);

}  // namespace gd
