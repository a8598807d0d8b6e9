#pragma once
// The CUDA toolchains a build here would use: each nvcc (PATH, CUDA_HOME,
// /usr/local/cuda*), its version from files, the newest gcc it accepts and
// the host compiler it would get; and the CUDA each framework was built with
// against the nvcc that would build its extensions.

#include "facts/application_facts.h"
#include "host/host.h"

namespace gd {

void find_toolchains(Host& host, ApplicationFacts& facts);
void compare_extension_builds(ApplicationFacts& facts);

}  // namespace gd
