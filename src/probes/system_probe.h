#pragma once
// Facts about the machine as a whole that every layer needs: the platform
// (plain Linux, WSL2 or gVisor change what each layer should look like),
// the kernel and the user we run as.

#include "probes/probe_context.h"

namespace gd {

SystemFacts probe_system(Host& host);

}  // namespace gd
