#pragma once
// nvidia-cdi-refresh.service's guard: its ExecCondition greps the running
// kernel's modules.dep for the nvidia module, and systemd skips the service
// where it finds none. Toolkit 1.18.0's pattern missed Debian's
// nvidia-current.ko, 1.18.1's missed a compressed nvidia.ko.xz: the service
// never ran, and /var/run/cdi/nvidia.yaml was never written.

#include "facts/container_facts.h"
#include "facts/probe_notes.h"
#include "host/host.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// Whether `grep -E PATTERN` finds a line of modules.dep (its lines that name
// nvidia): nothing where the pattern names no nvidia or cannot be read as a
// POSIX extended regular expression.
std::optional<bool> grep_matches_module_line(std::string_view pattern, std::string_view modules_dep);

// The guard of the installed service, where it has one that greps modules.dep;
// a modules.dep past the cap is noted, and the guard not judged. `path_unit`:
// nvidia-cdi-refresh.path's state where the caller already looked it up.
std::optional<CdiRefreshGuard> read_cdi_refresh_guard(Host& host, std::string_view kernel_release, ProbeNotes& notes,
                                                      std::optional<CdiRefresh> path_unit = std::nullopt);

}  // namespace gd
