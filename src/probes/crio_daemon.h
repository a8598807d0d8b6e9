#pragma once
// The crio that runs now, asked what it runs with. crio reads its files at
// start and rereads its runtimes when reloaded (SIGHUP, `systemctl reload
// crio`, from CRI-O 1.25 on), so a runtime or a default written since
// (`nvidia-ctk runtime configure --runtime=crio` without a reload) is not
// what the kubelet's pods get. Asked GET /config on crio's own socket by a
// child (child/crio_config_child.h), only where that socket is there.

#include "facts/engine_config_facts.h"
#include "host/host.h"

#include <optional>

namespace gd {

// GET /config on crio's socket; none where it is not there.
std::optional<ChildRequest> crio_config_request(const std::optional<std::string>& socket);

// What the child's answer says: the runtimes and default crio runs with, or
// why there is no answer.
CrioDaemonFacts parse_crio_config(const ChildAnswer& answer);

// Asked (or taken, where it was asked ahead) and read into facts.daemon,
// with the runtimes the files define, and crio would keep, that it lacks.
void ask_crio_daemon(Host& host, CrioEngineFacts& facts);

}  // namespace gd
