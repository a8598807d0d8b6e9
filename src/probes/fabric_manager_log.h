#pragma once
// What Fabric Manager wrote about its last runs: /var/log/fabricmanager.log
// (its LOG_FILE_NAME by default; the last 256 KiB), else, where it is not
// running, its unit's journal. The line that matters most is its refusal to
// run beside another driver: "fabric manager NVIDIA GPU driver interface
// version 550.127.05 don't match with driver version 550.120" ("doesn't" in
// newer releases), which names both versions.

#include "facts/driver_libs_facts.h"
#include "host/host.h"

#include <string_view>

namespace gd {

// The facts in a log's text (exposed for tests and fuzzing).
FabricManagerLogFacts parse_fabric_manager_log(std::string_view text);

// running: whether nv-fabricmanager runs (the journal is asked only where it does not).
std::optional<FabricManagerLogFacts> read_fabric_manager_log(Host& host, const Nullable<bool>& running);

}  // namespace gd
