#pragma once
// Part of layer 3, container, read on a host: how the host's container
// engines are configured to start GPU containers. Docker's daemon.json,
// containerd's config.toml with its imports, CRI-O's crio.conf with its
// drop-ins, and the NVIDIA Container Toolkit's config.toml, each read as
// its engine reads it at start.

#include "model/fact_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// A runtime an engine's configuration names, and whether its program is here.
struct EngineRuntime {
  std::string name;
  std::optional<std::string> binary{};  // unset: the engine's own runc
  Nullable<bool> found{};                // null: no binary of its own to look for
  bool is_default = false;

  template <class F>
  void fields(F& f) const {
    f("name", name, "the runtime's name (--runtime NAME, a RuntimeClass handler)");
    f("is_default", is_default, "it is the engine's default runtime: every container without another runs through it");
    f("binary", binary, "the program it runs (Docker's path, containerd's options.BinaryName), as written");
    f("found", found, "that program exists: an absolute path as it is, a bare name on the daemon's PATH (the one its unit sets, else systemd's default for services)");
  }
};

// What the running dockerd says it loaded (GET /info, what `docker info` asks):
// it reads daemon.json when it starts and when it reloads, so a file changed
// since is not yet what `docker run` gets.
struct DockerDaemonFacts {
  bool answered = false;
  std::optional<std::string> problem{}, version{}, default_runtime{};
  std::vector<std::string> runtimes{};
  bool runtimes_cut = false;

  template <class F>
  void fields(F& f) const {
    f("answered", answered, "the running dockerd answered GET /info on its socket");
    f("problem", problem, "why it gave no answer (permission denied on the socket, a timeout, not an HTTP server)");
    f("version", version, "its ServerVersion");
    f("default_runtime", default_runtime, "the default runtime it runs with (DefaultRuntime)");
    f("runtimes", runtimes, "the runtimes it has loaded (Runtimes' names, at most 32)");
    f("runtimes_cut", runtimes_cut, "it has more than 32: the rest are not listed, so none is judged missing");
  }
};

// The rootful daemon's daemon.json (moby daemon/config): /etc/docker/daemon.json
// unless docker.service's command line names another with --config-file.
struct DockerEngineFacts {
  bool installed = false;  // dockerd on the service PATH
  bool rootful_service = false;
  bool runtime_flags = false;
  std::optional<std::string> path{};
  std::optional<std::string> config{}, problem{};
  std::vector<EngineRuntime> runtimes{};
  std::string default_runtime = "runc";
  bool default_runtime_defined = true;
  std::optional<bool> cdi{};
  std::optional<std::string> cgroup_driver{};
  bool gpus_hook = false, cdi_hook = false;
  std::optional<std::int64_t> pid{};
  std::optional<std::string> socket{};
  std::optional<DockerDaemonFacts> daemon{};

  template <class F>
  void fields(F& f) const {
    f("installed", installed, "dockerd is on the PATH systemd gives services");
    f("rootful_service", rootful_service, "docker.service or docker.socket is enabled at boot: the rootful daemon, which reads /etc/docker/daemon.json");
    f("runtime_flags", runtime_flags, "docker.service's command line (its unit, drop-ins and environment files) passes --add-runtime or --default-runtime: daemon.json does not hold every runtime");
    f("path", path,
      "PATH as docker.service sets it (Environment=PATH=..., in its unit, drop-ins or environment files): where dockerd looks for "
      "nvidia-container-runtime-hook and a runtime's program; systemd's default PATH for services where it sets none");
    f("config", config, "the daemon.json dockerd reads (docker.service's --config-file, else /etc/docker/daemon.json), where it exists");
    f("problem", problem, "why dockerd would refuse the file (not JSON, not an object, a key of the wrong type)");
    f("runtimes", runtimes, "the runtimes it defines (at most 32)");
    f("default_runtime", default_runtime, "default-runtime, runc where unset", FreeText{});
    f("default_runtime_defined", default_runtime_defined,
      "the default runtime is runc, io.containerd.runc.v2, a shim name (with a dot, no slash) or one of runtimes: dockerd starts");
    f("cdi", cdi, "features.cdi as written (unset: on from Docker 28.2, off before)");
    f("cgroup_driver", cgroup_driver, "native.cgroupdriver from exec-opts");
    f("gpus_hook", gpus_hook, "nvidia-container-runtime-hook is on dockerd's PATH: dockerd registers the driver `--gpus` needs");
    f("cdi_hook", cdi_hook, "nvidia-cdi-hook is on dockerd's PATH: Docker 29.2 and later can serve `--gpus` through CDI");
    f("pid", pid, "the running dockerd's process id: its pid file (--pidfile, else /var/run/docker.pid) names a live process called dockerd");
    f("socket", socket, "where the running dockerd is asked: the unix socket its -H names, else /var/run/docker.sock (docker.socket's)");
    f("daemon", daemon, "what the running dockerd answered; asked only where it runs (a connection to docker.socket would start it), never under --root");
  }
};

// Rootless Docker of the user gpudoctor runs as, as dockerd-rootless-setuptool.sh
// installs it: a user unit running dockerd-rootless.sh, and a daemon.json of its own.
struct RootlessDockerFacts {
  std::string unit;
  bool enabled = false;
  std::optional<std::string> config{}, problem{};
  std::string default_runtime = "runc";
  bool default_runtime_defined = true;
  std::vector<EngineRuntime> runtimes{};
  std::optional<std::string> path{};
  std::optional<std::int64_t> pid{};
  std::optional<std::string> socket{};
  std::optional<DockerDaemonFacts> daemon{};

  template <class F>
  void fields(F& f) const {
    f("unit", unit, "the user's docker.service that runs dockerd-rootless.sh ($XDG_CONFIG_HOME, else $HOME/.config, /systemd/user)");
    f("enabled", enabled, "it is enabled (default.target.wants): the rootless daemon starts with the user's session");
    f("config", config, "its daemon.json ($XDG_CONFIG_HOME/docker/daemon.json), where it exists");
    f("problem", problem, "why the rootless dockerd would refuse that file");
    f("default_runtime", default_runtime, "default-runtime there, runc where unset", FreeText{});
    f("default_runtime_defined", default_runtime_defined, "the default runtime is runc, a shim name or one the file defines: the rootless dockerd starts");
    f("runtimes", runtimes, "the runtimes that file defines (at most 32); a bare program name is looked for on path, and not judged where the unit sets none");
    f("path", path, "PATH as the unit sets it (Environment=PATH=..., which dockerd-rootless-setuptool.sh writes): where the rootless dockerd looks for a runtime's program");
    f("pid", pid, "the running rootless dockerd's process id: $XDG_RUNTIME_DIR/docker.pid names a live process called dockerd");
    f("socket", socket, "where it is asked: $XDG_RUNTIME_DIR/docker.sock");
    f("daemon", daemon, "what the running rootless dockerd answered; asked only where it runs");
  }
};

// What the running containerd's CRI plugin answered to its status call
// (crictl info's "config"): the configuration it loaded when containerd
// started, which has no reload.
struct ContainerdDaemonFacts {
  bool running = false;
  bool answered = false;
  std::optional<std::string> problem{}, api{}, default_runtime{};
  std::vector<std::string> runtimes{};
  bool runtimes_cut = false;
  std::optional<bool> cdi{};
  std::vector<std::string> runtimes_not_loaded{};

  template <class F>
  void fields(F& f) const {
    f("running", running, "containerd answered on the socket (gRPC): it runs, with the configuration it read when it started");
    f("answered", answered, "its CRI plugin answered the status call: it loaded");
    f("problem", problem,
      "why it gave no answer (permission denied on the socket, connection refused where containerd is not running, its CRI plugin disabled or not loaded, a timeout)");
    f("api", api, "the CRI API that answered: runtime.v1, else runtime.v1alpha2");
    f("default_runtime", default_runtime, "the default runtime it runs pods with (defaultRuntimeName)");
    f("runtimes", runtimes, "the runtimes it has loaded (at most 32)");
    f("runtimes_cut", runtimes_cut, "it has more than 32: the rest are not listed, so none is judged missing");
    f("cdi", cdi, "enable_cdi as it loaded it");
    f("runtimes_not_loaded", runtimes_not_loaded,
      "runtimes the files define that it has not loaded (where it answered, with all its runtimes listed): the files changed after it started");
  }
};

// One containerd configuration with its imports, seen as its CRI plugin
// reads it (containerd's config versions 1 to 4, each file by its own).
struct ContainerdEngineFacts {
  std::string config;
  std::vector<std::string> files{};  // the config and each import read, in order
  std::optional<std::string> problem{};
  std::vector<std::string> missing_imports{};
  std::int64_t version = 1;
  std::vector<EngineRuntime> runtimes{};
  std::string default_runtime = "runc";
  bool default_runtime_defined = true;
  std::vector<std::string> runtimes_without_program{};
  bool default_runtime_without_program = false;
  std::optional<bool> cdi{};
  std::optional<std::int64_t> files_not_read{};
  std::optional<std::string> program{}, release{};
  std::optional<std::int64_t> major{};
  std::vector<std::string> sections_replaced{}, runtimes_dropped{};
  std::optional<std::string> default_runtime_dropped{}, refused{};
  std::optional<std::string> unit{};
  std::optional<std::string> socket{};
  std::optional<ContainerdDaemonFacts> daemon{};

  template <class F>
  void fields(F& f) const {
    f("config", config,
      "the main file: the one containerd.service's command line names (--config, -c), else /etc/containerd/config.toml; or k3s's, rke2's or "
      "microk8s's");
    f("unit", unit, "containerd.service, where it is installed and not masked: its command line gave the config, the program and the PATH");
    f("program", program,
      "the containerd that reads it: containerd.service's program (else containerd on its PATH), or k3s's, rke2's or microk8s's own");
    f("release", release, "its version, as its build set it (-X .../version.Version) or its module says");
    f("major", major,
      "its major release, from the Go module it was built as (github.com/containerd/containerd/v2 is 2): 1 puts an import's plugin section in place of the one before it, whole; 2 merges them key by key. Unset: not known, and the files are read as 2.x reads them");
    f("files", files, "it and every import read, in containerd's order (at most 16)");
    f("problem", problem, "the file and line gpudoctor could not read as TOML");
    f("missing_imports", missing_imports, "imports named without a * that do not exist: containerd does not start");
    f("version", version, "the config's version (none written: 1)");
    f("runtimes", runtimes, "the CRI runtimes defined, merged over the imports (at most 32)");
    f("default_runtime", default_runtime, "default_runtime_name, runc where unset");
    f("default_runtime_defined", default_runtime_defined,
      "the default runtime is one the files define, or runc where containerd keeps its own (2.x always; 1.x where the files define no runtime): the CRI plugin loads");
    f("runtimes_without_program", runtimes_without_program, "runtimes whose BinaryName is not on this machine, each as NAME (PROGRAM)");
    f("default_runtime_without_program", default_runtime_without_program, "the default runtime is one of them: every pod without another RuntimeClass fails");
    f("cdi", cdi, "enable_cdi as written (unset: on from containerd 2.0, off in 1.x)");
    f("files_not_read", files_not_read,
      "imports containerd reads that gpudoctor did not (a cap, a pattern it does not expand, or they could not be read; each in unreadable): its runtimes are then not judged");
    f("sections_replaced", sections_replaced, "containerd 1.x: each file whose CRI plugin section (the one the plugin reads) took the place of an earlier file's, whole");
    f("runtimes_dropped", runtimes_dropped,
      "containerd 1.x: runtimes an earlier file defined that a later file's section, put in its place, does not: gone, each as NAME (FILE); runc is not listed");
    f("default_runtime_dropped", default_runtime_dropped,
      "containerd 1.x: the default_runtime_name an earlier file set, lost the same way, as NAME (FILE); the default is then runc");
    f("refused", refused,
      "containerd 1.x does not start on these files, in its words: a plugin, disabled or required plugin not named by its URI once a file says version 2 (\"cri\" is version 1's name)");
    f("socket", socket,
      "where it is asked, where the socket is there: containerd.service's --address (-a), else [grpc] address in the files, else /run/containerd/containerd.sock; k3s's and rke2's /run/k3s/containerd/containerd.sock, microk8s's own");
    f("daemon", daemon, "what the running containerd's CRI plugin loaded; asked only where its socket is there");
  }
};

// What the running crio answered GET /config on its socket: the
// configuration it runs with, read at start or at its last reload (SIGHUP
// rereads the runtimes from CRI-O 1.25 on), its flags applied and runtimes
// whose program it did not find dropped.
struct CrioDaemonFacts {
  bool answered = false;
  std::optional<std::string> problem{}, default_runtime{};
  std::vector<std::string> runtimes{};
  bool runtimes_cut = false;
  std::vector<std::string> runtimes_not_loaded{};

  template <class F>
  void fields(F& f) const {
    f("answered", answered, "the running crio answered GET /config on its socket");
    f("problem", problem, "why it gave no answer (permission denied on the socket, connection refused where crio is not running, a timeout, not CRI-O)");
    f("default_runtime", default_runtime, "the default runtime it runs pods with (any name crio.conf gives)", FreeText{});
    f("runtimes", runtimes, "the runtimes it has (at most 32)");
    f("runtimes_cut", runtimes_cut, "it has more than 32: the rest are not listed, so none is judged missing");
    f("runtimes_not_loaded", runtimes_not_loaded,
      "runtimes the files define, with their program here, that it does not have (where it answered, the files were all read and all its runtimes listed): the files changed after it started or was last reloaded");
  }
};

// CRI-O's crio.conf and its drop-ins, as crio reads them at start (cri-o pkg/config).
struct CrioEngineFacts {
  bool installed = false;
  std::vector<std::string> files{};
  std::optional<std::string> config_missing{};
  std::optional<std::string> problem{};
  std::vector<EngineRuntime> runtimes{};
  std::optional<std::string> default_runtime{};
  bool default_runtime_defined = true;
  std::vector<std::string> runtimes_without_program{};
  bool default_runtime_without_program = false;
  std::optional<std::int64_t> files_not_read{};
  std::vector<std::string> hooks_dirs{};
  std::vector<std::string> command_line{};
  bool command_line_sets_runtimes = false, command_line_sets_hooks = false;
  std::optional<std::string> socket{};
  std::optional<CrioDaemonFacts> daemon{};

  template <class F>
  void fields(F& f) const {
    f("installed", installed, "crio is on the PATH systemd gives services");
    f("files", files, "crio.conf and each file below its drop-in directory read, in crio's order (at most 16): /etc/crio/crio.conf and /etc/crio/crio.conf.d, or what crio.service's --config and --config-dir (or CONTAINER_CONFIG, CONTAINER_CONFIG_DIR) name");
    f("config_missing", config_missing,
      "the file crio.service names with --config (or CONTAINER_CONFIG), which is not there: crio does not start without it (a missing /etc/crio/crio.conf that nothing names is skipped)");
    f("problem", problem, "the file and line gpudoctor could not read as TOML");
    f("runtimes", runtimes, "the runtimes the files define ([crio.runtime.runtimes.NAME]; at most 32); a runtime without runtime_path runs the program of its own name");
    f("default_runtime", default_runtime, "[crio.runtime] default_runtime, where a file writes it (unset: crun from CRI-O 1.31, runc before)");
    f("default_runtime_defined", default_runtime_defined, "the default runtime is crun, runc or one the files define: crio starts");
    f("runtimes_without_program", runtimes_without_program, "runtimes whose program is not on this machine, each as NAME (PROGRAM): crio drops them");
    f("default_runtime_without_program", default_runtime_without_program, "the written default runtime is one of them: crio does not start");
    f("files_not_read", files_not_read,
      "files or directories crio reads that gpudoctor did not (a cap, or they could not be read; each in unreadable): its runtimes are then not judged");
    f("hooks_dirs", hooks_dirs, "[crio.runtime] hooks_dir, where crio reads OCI hooks (unset: /usr/share/containers/oci/hooks.d; at most 8)");
    f("command_line", command_line,
      "settings crio.service gives crio on its command line or in its environment where its files set them (--default-runtime, --runtimes, --hooks-dir, or their CONTAINER_* variables), each as FLAG=VALUE (FILE; at most 8): the files alone do not say all crio has");
    f("command_line_sets_runtimes", command_line_sets_runtimes,
      "one of them sets the default runtime or more runtimes (--default-runtime, --runtimes): CRI-O's runtimes are not judged");
    f("command_line_sets_hooks", command_line_sets_hooks,
      "one of them sets the hooks directory (--hooks-dir): CRI-O's OCI hooks are not judged");
    f("socket", socket,
      "where the running crio is asked: crio.service's --listen (or CONTAINER_LISTEN), else the files' [crio.api] listen, else /var/run/crio/crio.sock; set only where that socket is there, never under --root");
    f("daemon", daemon, "what the running crio runs with; asked only where its socket is there");
  }
};

// One OCI hook file (hooks.d/NAME.json), as podman and CRI-O read it.
struct OciHookFile {
  std::string file;
  std::optional<std::string> program{};
  Nullable<bool> program_found{};
  bool nvidia = false;
  bool always = false;
  std::optional<std::string> problem{};

  template <class F>
  void fields(F& f) const {
    f("file", file, "the hook file");
    f("program", program, "the program it runs (hook.path; 0.1.0: hook), as written");
    f("program_found", program_found, "that program exists; null: a relative path, or the file was refused before");
    f("nvidia", nvidia, "the program is NVIDIA's hook (nvidia-container-runtime-hook, nvidia-container-toolkit, oci-nvidia-hook)");
    f("always", always, "when.always is true: the engine adds it to every container it starts");
    f("problem", problem, "why podman and CRI-O refuse the file (not JSON, a field of the wrong type, an unknown version or stage); CRI-O also refuses podman's precreate stage");
  }
};

// The OCI hooks podman and CRI-O add to containers (containers/common
// pkg/hooks): every *.json in their hooks directories, a later directory's
// file replacing an earlier one of the same name.
struct OciHooksFacts {
  bool podman = false;
  std::vector<std::string> podman_dirs{};
  std::vector<OciHookFile> hooks{};
  std::optional<std::string> podman_refuses{}, crio_refuses{};
  std::vector<std::string> nvidia_hooks_dropped{};
  std::optional<std::int64_t> files_not_read{};

  template <class F>
  void fields(F& f) const {
    f("podman", podman, "podman is on the PATH systemd gives services");
    f("podman_dirs", podman_dirs,
      "where podman reads hooks: [engine] hooks_dir of containers.conf as podman reads it (/usr/share/containers, /etc/containers and its .d; for a user, containers.rootless.conf; then $XDG_CONFIG_HOME, else ~/.config; an array with {append=true} added to the one before), else /usr/share/containers/oci/hooks.d");
    f("hooks", hooks, "every hook file in podman's and CRI-O's directories (at most 64)");
    f("podman_refuses", podman_refuses,
      "the hook file, and why, that makes podman fail every container ('setting up OCI Hooks: ...'): the first file a directory refuses, unless a missing program came first");
    f("crio_refuses", crio_refuses, "the same for crio, which reads its hooks at start: crio does not start");
    f("nvidia_hooks_dropped", nvidia_hooks_dropped,
      "NVIDIA hook files whose program is missing, for an engine that loads no other NVIDIA hook: the engine drops them without a word");
    f("files_not_read", files_not_read,
      "hook files or directories the engines read that gpudoctor did not (a cap, or they could not be read; each in unreadable): the engines' outcome is then not judged");
  }
};

// The modes the toolkit's runtime knows; invalid: any other value, which it refuses.
enum class ToolkitMode { auto_, legacy, cdi, jit_cdi, csv, invalid };
template <>
struct EnumTable<ToolkitMode> {
  static constexpr std::array names{"auto", "legacy", "cdi", "jit-cdi", "csv", "invalid"};
};

// The NVIDIA Container Toolkit's config.toml (nvidia-container-toolkit internal/config).
struct ToolkitConfigFacts {
  std::string config;
  std::optional<std::string> problem{};
  ToolkitMode mode = ToolkitMode::auto_;
  std::optional<std::string> mode_written{};
  bool no_cgroups = false;
  std::optional<std::string> ldconfig{};
  Nullable<bool> ldconfig_found{};
  bool skip_mode_detection = false;
  std::optional<std::string> cdi_kind{};
  std::vector<std::string> cdi_spec_dirs{};
  std::optional<bool> cdi_spec_found{};
  std::optional<bool> unread{};

  template <class F>
  void fields(F& f) const {
    f("config", config, "/etc/nvidia-container-runtime/config.toml, else the GPU Operator's under /usr/local/nvidia/toolkit/.config");
    f("problem", problem, "the line gpudoctor could not read as TOML");
    f("mode", mode, "[nvidia-container-runtime] mode, auto where unset; invalid: a value the runtime refuses ('invalid runtime mode')");
    f("mode_written", mode_written, "the mode as written, where it is written (escaped, at most 40 characters)");
    f("no_cgroups", no_cgroups, "[nvidia-container-cli] no-cgroups: the legacy path leaves the device cgroup alone (meant for rootless engines)");
    f("ldconfig", ldconfig, "[nvidia-container-cli] ldconfig as written; @ marks a host path");
    f("ldconfig_found", ldconfig_found,
      "a host ldconfig the toolkit would run exists (it tries the path with and without .real); null: not a host path");
    f("skip_mode_detection", skip_mode_detection, "[nvidia-container-runtime-hook] skip-mode-detection");
    f("cdi_kind", cdi_kind, "in cdi mode: the kind it asks CDI for (modes.cdi.default-kind; nvidia.com/gpu, the GPU Operator's management.nvidia.com/gpu)");
    f("cdi_spec_dirs", cdi_spec_dirs, "in cdi mode: where it reads specs (modes.cdi.spec-dirs; /etc/cdi, /var/run/cdi)");
    f("cdi_spec_found", cdi_spec_found, "in cdi mode: a spec of that kind is in those directories; unset where the directories held more than gpudoctor reads, or a spec it may not read where none of the kind was read");
    f("unread", unread, "true where the file is there but gpudoctor did not read it (in unreadable): the facts above are then the toolkit's defaults, and not judged");
  }
};

struct EngineFacts {
  std::optional<DockerEngineFacts> docker{};
  std::optional<RootlessDockerFacts> docker_rootless{};
  std::vector<ContainerdEngineFacts> containerd{};
  std::optional<CrioEngineFacts> crio{};
  std::optional<ToolkitConfigFacts> toolkit{};
  std::optional<OciHooksFacts> oci_hooks{};

  // Nothing of any engine is here (beside the members, so that a new engine is counted).
  bool empty() const { return !docker && !docker_rootless && containerd.empty() && !crio && !toolkit && !oci_hooks; }

  template <class F>
  void fields(F& f) const {
    f("docker", docker, "Docker, where dockerd or its daemon.json is here");
    f("docker_rootless", docker_rootless, "rootless Docker of the user gpudoctor runs as, where its unit is in that user's configuration");
    f("containerd", containerd, "each containerd configuration here (containerd's own, k3s's, rke2's, microk8s's)");
    f("crio", crio, "CRI-O, where crio or a file of its configuration is here");
    f("toolkit", toolkit, "the NVIDIA Container Toolkit's configuration, where it is here");
    f("oci_hooks", oci_hooks, "the OCI hooks podman and CRI-O add to containers, where podman or crio or a hook file is here");
  }
};

}  // namespace gd
