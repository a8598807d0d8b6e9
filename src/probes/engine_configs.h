#pragma once
// The host's container engines as they are configured to start GPU
// containers, read from their files the way each engine reads them at
// start: Docker's daemon.json (moby daemon/config), containerd's config.toml
// and its imports (containerd cmd/containerd/server/config and the CRI
// plugin's tables), CRI-O's crio.conf and drop-ins (cri-o pkg/config), the OCI
// hooks both podman and CRI-O read, the NVIDIA Container Toolkit's config.toml. Facts only;
// rules/layers/engines.json judges them.

#include "facts/container_facts.h"
#include "facts/engine_config_facts.h"
#include "facts/probe_notes.h"
#include "host/host.h"
#include "host/host_paths.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// Every engine found; nothing where none is (most machines without GPUs in containers).
EngineFacts read_engine_configs(Host& host, Probed<ContainerFacts>& notes);

// Docker where dockerd or /etc/docker/daemon.json is here.
std::optional<DockerEngineFacts> read_docker_engine(Host& host, ProbeNotes& notes);

// Rootless Docker of the user gpudoctor runs as, where its unit is set up.
std::optional<RootlessDockerFacts> read_rootless_docker(Host& host, ProbeNotes& notes);

// Each containerd configuration here: containerd's own, k3s's, rke2's, microk8s's.
std::vector<ContainerdEngineFacts> read_containerd_engines(Host& host, ProbeNotes& notes);

// CRI-O where crio or its configuration is here.
std::optional<CrioEngineFacts> read_crio_engine(Host& host, ProbeNotes& notes);

// The OCI hooks podman and CRI-O add to containers, where either engine or
// a hook file is here; crio's hooks_dirs come from its facts.
std::optional<OciHooksFacts> read_oci_hooks(Host& host, const std::optional<CrioEngineFacts>& crio, ProbeNotes& notes);

// The toolkit's config.toml where it is here.
std::optional<ToolkitConfigFacts> read_toolkit_config(Host& host, ProbeNotes& notes);

// An engine's configuration file read whole, up to 1 MiB: no engine's is
// larger. One that is there but cannot be read, or is larger, is noted and
// gives no text; one that is not there gives none silently, as most are optional.
struct EngineFile {
  std::optional<std::string> text;
  bool missing = false;  // ENOENT or ENOTDIR: the engine sees no file either
};
EngineFile read_engine_file(Host& host, const std::string& path, ProbeNotes& notes);

// How an engine's runtime program is found: an absolute path as it is, a
// bare name on the daemon's PATH (systemd's for services, unless its unit sets one).
bool engine_program_found(Host& host, const std::string& program, std::string_view search_path = k_service_path);

}  // namespace gd
