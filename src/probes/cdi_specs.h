#pragma once
// The CDI specs an engine on this machine would read (/etc/cdi, /var/run/cdi:
// the default spec directories of tags.cncf.io/container-device-interface),
// each checked against what is here: the host paths it needs, and the driver
// it was generated for (nvidia-ctk cdi generate names the libraries by version).

#include "facts/container_facts.h"
#include "probes/probe_context.h"

#include <string>
#include <vector>

namespace gd {

// What one look at the spec directories reads: every file counts, whatever
// its vendor. A node with a DRA driver holds a transient spec per resource
// claim in /var/run/cdi (cdiapi.GenerateTransientSpecName), hundreds on a
// busy one, so the caps are far above that, on files and on bytes together.
class CdiSpecBudget {
 public:
  static constexpr std::size_t k_max_files = 4096;
  static constexpr std::size_t k_max_bytes = 64 << 20;

  // Whether the spec at path may be read; the first one past a cap is noted.
  bool admit(const std::string& path, ProbeNotes& notes);
  void spend(std::size_t bytes) { m_bytes += bytes; }

 private:
  std::size_t m_files = 0, m_bytes = 0;
  bool m_spent = false;
};

// The NVIDIA specs in /etc/cdi and /var/run/cdi. On a host each is checked
// against the host's files; in_container (a spec mounted into a pod), its
// common mounts against the container's, since the host's are out of sight.
std::vector<CdiSpecFacts> read_cdi_specs(ProbeContext& context, Probed<ContainerFacts>& notes, bool in_container);

// Whether nvidia-cdi-refresh.path is enabled, installed only, or absent.
CdiRefresh cdi_refresh_state(Host& host);

}  // namespace gd
