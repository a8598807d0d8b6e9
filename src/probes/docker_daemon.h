#pragma once
// The Docker daemon that runs now, asked what it loaded. dockerd reads
// daemon.json when it starts and when it reloads (SIGHUP: runtimes and the
// default runtime), so a file written since (`nvidia-ctk runtime configure`
// without a restart) is not what `docker run` gets. Asked GET /info on the
// daemon's own socket by a child (child/docker_api_child.h), and only where
// dockerd already runs: a connection to docker.socket would start it.

#include "facts/engine_config_facts.h"
#include "host/host.h"

#include <optional>

namespace gd {

// GET /info on the socket of a dockerd that runs (rootful or rootless: its
// facts' socket is set only then); none where none runs.
std::optional<ChildRequest> docker_info_request(const std::optional<std::string>& socket);

// What the child's answer says: the daemon's version, default runtime and
// runtimes, or why there is no answer.
DockerDaemonFacts parse_docker_info(const ChildAnswer& answer);

// Asked (or taken, where it was asked ahead) and read; nullopt where no dockerd runs.
std::optional<DockerDaemonFacts> ask_docker_daemon(Host& host, const std::optional<std::string>& socket);

}  // namespace gd
