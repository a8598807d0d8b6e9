#pragma once
// The CDI specs an engine on this machine would read (/etc/cdi, /var/run/cdi:
// the default spec directories of tags.cncf.io/container-device-interface),
// each checked against what is here: the host paths it needs, and the driver
// it was generated for (nvidia-ctk cdi generate names the libraries by version).

#include "facts/container_facts.h"
#include "probes/probe_context.h"

#include <vector>

namespace gd {

// The NVIDIA specs in /etc/cdi and /var/run/cdi. On a host each is checked
// against the host's files; in_container (a spec mounted into a pod), its
// common mounts against the container's, since the host's are out of sight.
std::vector<CdiSpecFacts> read_cdi_specs(ProbeContext& context, Probed<ContainerFacts>& notes, bool in_container);

// Whether nvidia-cdi-refresh.path is enabled, installed only, or absent.
CdiRefresh cdi_refresh_state(Host& host);

}  // namespace gd
