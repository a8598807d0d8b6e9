#pragma once
// The containerd that runs now, asked what its CRI plugin loaded. containerd
// reads its files only when it starts (it has no reload), so a runtime or a
// default written since (`nvidia-ctk runtime configure --runtime=containerd`
// without a restart) is not what the kubelet's pods get. Asked the CRI
// status call on containerd's own socket by a child
// (child/cri_status_child.h), only where that socket is there.

#include "facts/engine_config_facts.h"
#include "host/host.h"

#include <optional>

namespace gd {

// The CRI status call on a containerd's socket; none where it is not there.
std::optional<ChildRequest> cri_status_request(const std::optional<std::string>& socket);

// What the child's answer says: the runtimes and default the CRI plugin
// loaded, or why there is no answer.
ContainerdDaemonFacts parse_cri_status(const ChildAnswer& answer);

// Asked (or taken, where it was asked ahead) and read into facts.daemon,
// with the runtimes the files define that it has not loaded.
void ask_containerd_daemon(Host& host, ContainerdEngineFacts& facts);

}  // namespace gd
