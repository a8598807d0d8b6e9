"""A host's container engines as they are configured to start GPU
containers: Docker's daemon.json, containerd's config.toml with its imports
(containerd 1.x and 2.x, k3s), CRI-O's crio.conf.d, the NVIDIA Container
Toolkit's config.toml.
Each file is written the way its tool writes it (nvidia-ctk runtime
configure, the toolkit's packages, `containerd config default`); each
failure has the healthy host it was broken from."""

from scenarios.binaries import go_program
from scenarios.engines import nvidia_ctk_spec
from scenarios.snapshot import *  # noqa: F401,F403

# nvidia-ctk runtime configure --runtime=docker --set-as-default (4-space json.MarshalIndent; "args", not runtimeArgs).
DAEMON_JSON = """{
    "default-runtime": "nvidia",
    "runtimes": {
        "nvidia": {
            "args": [],
            "path": "nvidia-container-runtime"
        }
    }
}
"""

# What the toolkit's packages leave after `nvidia-ctk config --in-place` (defaults commented out).
TOOLKIT_CONFIG = """#accept-nvidia-visible-devices-as-volume-mounts = false
#accept-nvidia-visible-devices-envvar-when-unprivileged = true
disable-require = false
supported-driver-capabilities = "compat32,compute,display,graphics,ngx,utility,video"
#swarm-resource = "DOCKER_RESOURCE_GPU"

[nvidia-container-cli]
#debug = "/var/log/nvidia-container-toolkit.log"
environment = []
#ldcache = "/etc/ld.so.cache"
ldconfig = "@/sbin/ldconfig.real"
load-kmods = true
{no_cgroups}#path = "/usr/bin/nvidia-container-cli"
#root = "/run/nvidia/driver"
#user = "root:video"

[nvidia-container-runtime]
#debug = "/var/log/nvidia-container-runtime.log"
log-level = "info"
{mode}runtimes = ["runc", "crun"]

[nvidia-container-runtime.modes]

[nvidia-container-runtime.modes.cdi]
annotation-prefixes = ["cdi.k8s.io/"]
default-kind = "nvidia.com/gpu"
spec-dirs = ["/etc/cdi", "/var/run/cdi"]

[nvidia-container-runtime.modes.csv]
mount-spec-path = "/etc/nvidia-container-runtime/host-files-for-container.d"

[nvidia-container-runtime-hook]
path = "nvidia-container-runtime-hook"
skip-mode-detection = false

[nvidia-ctk]
path = "nvidia-ctk"
"""

# containerd 2.x: `containerd config default` (version 3, single-quoted keys), cut to what matters, with
# the imports line nvidia-ctk 1.18.1 and later add.
CONTAINERD2_CONFIG = """version = 3
imports = ['/etc/containerd/conf.d/*.toml']
root = '/var/lib/containerd'
state = '/run/containerd'

[plugins]
  [plugins.'io.containerd.cri.v1.runtime']
    enable_selinux = false
    [plugins.'io.containerd.cri.v1.runtime'.containerd]
      default_runtime_name = 'runc'
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes]
        [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
          runtime_type = 'io.containerd.runc.v2'
          [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
            BinaryName = ''
            SystemdCgroup = true
"""

# containerd 2.x with nvidia the default runtime, its program the GPU Operator's (removed with the operator).
NVIDIA_DEFAULT_OPERATOR_REMOVED = """version = 3
[plugins.'io.containerd.cri.v1.runtime'.containerd]
  default_runtime_name = "nvidia"
[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
  runtime_type = "io.containerd.runc.v2"
[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.nvidia]
  runtime_type = "io.containerd.runc.v2"
[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.nvidia.options]
  BinaryName = "/usr/local/nvidia/toolkit/nvidia-container-runtime"
"""

# /etc/containerd/conf.d/99-nvidia.toml from nvidia-ctk runtime configure --runtime=containerd (1.18.1+):
# a copy of the CRI section with the nvidia runtime added, runc left the default (pods ask through a RuntimeClass).
CONTAINERD2_NVIDIA_DROP_IN = """version = 3

[plugins]

  [plugins."io.containerd.cri.v1.runtime"]

    [plugins."io.containerd.cri.v1.runtime".containerd]
      default_runtime_name = "runc"

      [plugins."io.containerd.cri.v1.runtime".containerd.runtimes]

        [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia]
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia.options]
            BinaryName = "{binary}"
            SystemdCgroup = true
"""

# /etc/crio/crio.conf.d/10-crio.conf as CRI-O's packages (cri-o/packaging) install it: crun and runc under /usr/libexec/crio.
CRIO_PACKAGED_DROP_IN = """[crio.image]
signature_policy = "/etc/crio/policy.json"

[crio.runtime]
default_runtime = "crun"

[crio.runtime.runtimes.crun]
runtime_path = "/usr/libexec/crio/crun"
runtime_root = "/run/crun"
monitor_path = "/usr/libexec/crio/conmon"
allowed_annotations = [
    "io.containers.trace-syscall",
]

[crio.runtime.runtimes.runc]
runtime_path = "/usr/libexec/crio/runc"
runtime_root = "/run/runc"
monitor_path = "/usr/libexec/crio/conmon"
"""

# /etc/crio/crio.conf.d/99-nvidia.toml from nvidia-ctk runtime configure --runtime=crio (the toolkit's own test of it),
# with default_runtime where --set-as-default was given.
CRIO_NVIDIA_DROP_IN = """
[crio]

  [crio.runtime]
{default}
    [crio.runtime.runtimes]

      [crio.runtime.runtimes.nvidia]
        runtime_path = "{directory}/nvidia-container-runtime"
        runtime_type = "oci"

      [crio.runtime.runtimes.nvidia-cdi]
        runtime_path = "{directory}/nvidia-container-runtime.cdi"
        runtime_type = "oci"

      [crio.runtime.runtimes.nvidia-legacy]
        runtime_path = "{directory}/nvidia-container-runtime.legacy"
        runtime_type = "oci"
"""

TOOLKIT_BINARIES = ("/usr/bin/nvidia-container-runtime", "/usr/bin/nvidia-container-runtime-hook", "/usr/bin/nvidia-ctk",
                    "/usr/bin/nvidia-cdi-hook", "/usr/bin/nvidia-container-cli")


def toolkit_host(name, description, toolkit=True, no_cgroups=None, mode=None):
    """An H100 host with Docker and, unless said otherwise, the NVIDIA Container Toolkit as its packages install it."""
    s = h100_host(name, description)
    s.file("/usr/bin/dockerd", "").file("/usr/bin/containerd", "").file("/sbin/ldconfig.real", "").file("/sbin/ldconfig", "")
    # The rootful daemon, enabled at boot as docker-ce's package enables it.
    s.file("/lib/systemd/system/docker.service", "[Service]\nExecStart=/usr/bin/dockerd -H fd:// --containerd=/run/containerd/containerd.sock\n")
    s.link("/etc/systemd/system/multi-user.target.wants/docker.service", "/lib/systemd/system/docker.service")
    if toolkit:
        for program in TOOLKIT_BINARIES:
            s.file(program, "")
        s.link("/usr/bin/nvidia-container-toolkit", "nvidia-container-runtime-hook")
        s.file("/etc/nvidia-container-runtime/config.toml", TOOLKIT_CONFIG.format(
            no_cgroups="no-cgroups = %s\n" % str(no_cgroups).lower() if no_cgroups is not None else "#no-cgroups = false\n",
            mode='mode = "%s"\n' % mode if mode else '#mode = "auto"\n'))
    return s


# ~/.config/systemd/user/docker.service as dockerd-rootless-setuptool.sh install writes it.
ROOTLESS_DOCKER_UNIT = """[Unit]
Description=Docker Application Container Engine (Rootless)
Documentation=https://docs.docker.com/go/rootless/

[Service]
Environment=PATH=/usr/bin:/sbin:/usr/sbin:/usr/local/bin:/usr/bin:/bin
ExecStart=/usr/bin/dockerd-rootless.sh
ExecReload=/bin/kill -s HUP $MAINPID
TimeoutSec=0
RestartSec=2
Restart=always
StartLimitBurst=3
StartLimitInterval=60s
LimitNOFILE=infinity
LimitNPROC=infinity
LimitCORE=infinity
TasksMax=infinity
Delegate=yes
Type=notify
NotifyAccess=all
KillMode=mixed

[Install]
WantedBy=default.target
"""


def rootless_docker_host(name, description, no_cgroups=None, toolkit=True):
    """Alice's rootless Docker on an H100 host with the toolkit, checked as alice: her unit enabled, her daemon.json
    with the nvidia runtime (`nvidia-ctk runtime configure --runtime=docker --config=$HOME/.config/docker/daemon.json`),
    no rootful daemon enabled."""
    s = toolkit_host(name, description, toolkit=toolkit, no_cgroups=no_cgroups)
    del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
    s.file("/usr/bin/dockerd-rootless.sh", "")
    s.env["HOME"] = "/home/alice"
    s.file("/home/alice/.config/systemd/user/docker.service", ROOTLESS_DOCKER_UNIT)
    s.link("/home/alice/.config/systemd/user/default.target.wants/docker.service", "/home/alice/.config/systemd/user/docker.service")
    s.file("/home/alice/.config/docker/daemon.json", DAEMON_JSON.replace('    "default-runtime": "nvidia",\n', ""))
    return s


# What a running dockerd answers GET /info, as gpudoctor's docker-api child passes it on (Docker 25 and later
# list stock runc under both of its names).
def dockerd_running(s, default="runc", runtimes=("io.containerd.runc.v2", "runc"), version="28.3.3", exit=0, stdout=None,
                    stderr="", runtime_dir=None, pid_file="/var/run/docker.pid", socket="/var/run/docker.sock"):
    """dockerd running (its pid file and process) and what it answered on its socket: the rootful one, or with
    runtime_dir the user's rootless one, whose pid file and socket dockerd-rootless.sh puts in $XDG_RUNTIME_DIR."""
    if runtime_dir:
        s.env["XDG_RUNTIME_DIR"] = runtime_dir
        s.file(runtime_dir + "/docker.pid", "5151").proc_stat(5151, "dockerd", parent=5140)  # rootlesskit's child
    else:
        s.file(pid_file, "1187").proc_stat(1187, "dockerd", parent=1)
    if stdout is None:
        listed = ",".join('"%s":{"path":"%s"}' % (name, "runc" if name in ("io.containerd.runc.v2", "runc")
                                                   else "nvidia-container-runtime") for name in runtimes)
        stdout = '{"ServerVersion":"%s","DefaultRuntime":"%s","Runtimes":{%s}}\n' % (version, default, listed)
    s.children.append({"kind": "docker-api", "args": [runtime_dir + "/docker.sock" if runtime_dir else socket], "exit": exit,
                       "stdout": stdout, "stderr": stderr, "timed_out": False})
    return s


# What a running containerd's CRI plugin answers its verbose status call, as gpudoctor's cri-status child passes it
# on (crictl info's config: the runtimes, the default and CDI as containerd loaded them when it started). exit 3 is
# the child's "no CRI runtime service" (the plugin disabled or not loaded); 1 a socket it could not use.
def containerd_running(s, default="runc", runtimes=(("runc", None),), cdi=None, socket="/run/containerd/containerd.sock",
                       exit=0, stderr="", api="runtime.v1"):
    """containerd's socket (a file in a snapshot: stat is all gpudoctor asks of it) and its answer. runtimes: (name,
    BinaryName or None) pairs."""
    s.file(socket, "")
    stdout = ""
    if exit == 0:
        listed = ",".join('"%s":{"type":"io.containerd.runc.v2"%s}' % (name, ',"binary":"%s"' % binary if binary else "")
                          for name, binary in runtimes)
        stdout = '{"API":"%s","DefaultRuntime":"%s","Runtimes":{%s}%s}\n' % (
            api, default, listed, ',"CDI":%s' % ("true" if cdi else "false") if cdi is not None else "")
    s.children.append({"kind": "cri-status", "args": [socket], "exit": exit, "stdout": stdout, "stderr": stderr,
                       "timed_out": False})
    return s


# What a running crio answers GET /config, as gpudoctor's crio-config child passes it on: [crio.runtime]'s
# default_runtime and each runtime's table with its program (crio has resolved each path and dropped the runtimes
# whose program it did not find). exit 1 is the child's "could not ask" (a socket refused, nobody listening).
def crio_running(s, default="crun", runtimes=(("crun", "/usr/libexec/crio/crun"), ("runc", "/usr/libexec/crio/runc")),
                 socket="/var/run/crio/crio.sock", exit=0, stderr=""):
    """crio's socket (a file in a snapshot: stat is all gpudoctor asks of it) and its answer. runtimes: (name,
    runtime_path) pairs."""
    s.file(socket, "")
    stdout = ""
    if exit == 0:
        stdout = '[crio.runtime]\ndefault_runtime = "%s"\n' % default + "".join(
            '[crio.runtime.runtimes.%s]\nruntime_path = "%s"\nruntime_type = "oci"\n' % runtime for runtime in runtimes)
    s.children.append({"kind": "crio-config", "args": [socket], "exit": exit, "stdout": stdout, "stderr": stderr,
                       "timed_out": False})
    return s


def dra_node(name, description):
    """An H100 host with the toolkit in cdi mode, nvidia-cdi-refresh's /var/run/cdi/nvidia.yaml, and 300 transient
    claim specs of NVIDIA's DRA driver (the CDI package's GenerateTransientSpecName: VENDOR-CLASS_UID.yaml)."""
    s = toolkit_host(name, description, mode="cdi")
    del s.files["/usr/bin/dockerd"]
    s.file("/var/run/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15"))
    for i in range(300):
        uid = "3f2a9c1e-%04x-4b7d-9e21-%012x" % (i, 0x5a17c0de0000 + i)
        s.file(f"/var/run/cdi/k8s.gpu.nvidia.com-claim_{uid}.yaml",
               "cdiVersion: 0.5.0\nkind: k8s.gpu.nvidia.com/claim\ndevices:\n"
               f"- name: {uid}-gpu-0\n  containerEdits:\n    env:\n    - NVIDIA_VISIBLE_DEVICES=void\n"
               "    deviceNodes:\n    - path: /dev/nvidia0\n")
    return s


def scenarios():
    s = toolkit_host("host-docker-nvidia-default-healthy", "Docker with the nvidia runtime as its default, written by "
                     "`nvidia-ctk runtime configure --set-as-default`; the toolkit's config as its packages leave it.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    yield s.expect("ok", None, [])

    s = toolkit_host("host-docker-daemon-json-bom-healthy", "daemon.json saved by a Windows editor with a byte order mark, "
                     "which dockerd (moby 23 and later) skips.")
    s.file("/etc/docker/daemon.json", "\ufeff".encode("utf-8").decode("latin-1") + DAEMON_JSON)
    yield s.expect("ok", None, [])

    s = toolkit_host("host-docker-daemon-json-oversized", "A daemon.json past 1 MiB (a provisioning loop appended the same "
                     "block again and again): more than any engine writes, so gpudoctor does not read it and says so.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON + " " * (1 << 20))
    yield s.expect("warn", None, ["container-input-unreadable"], headline="container-input-unreadable",
                   absent=["docker-default-runtime-undefined", "docker-config-refused"])

    s = toolkit_host("host-containerd-config-hardened", "containerd's config.toml made 0600 by a hardening baseline and "
                     "checked by a user: the engines' view leaves it out and says why, and nothing is wrong.")
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG)
    s.errors["/etc/containerd/config.toml"] = "EACCES"
    s.user = {"uid": 1000, "gid": 1000, "groups": [1000]}
    yield s.expect("ok", None, [], info=["container-input-not-permitted"], absent=["container-input-unreadable"])

    s = rootless_docker_host("host-docker-rootless-no-cgroups-healthy", "Rootless Docker as NVIDIA documents it: "
                             "no-cgroups = true, dockerd-rootless.sh a user's unit with the nvidia runtime in its own "
                             "daemon.json, no rootful daemon enabled.", no_cgroups=True)
    yield s.expect("ok", None, [], absent=["toolkit-no-cgroups-with-rootful-docker", "toolkit-cgroups-with-rootless-docker"])

    s = rootless_docker_host("host-docker-rootless-not-restarted", "Alice ran `nvidia-ctk runtime configure --runtime=docker "
                             "--config=$HOME/.config/docker/daemon.json --set-as-default` and not `systemctl --user restart "
                             "docker`: her running rootless dockerd has neither the nvidia runtime nor the new default.",
                             no_cgroups=True)
    s.file("/home/alice/.config/docker/daemon.json", DAEMON_JSON)
    dockerd_running(s, runtime_dir="/run/user/1000")
    yield s.expect("warn", None, ["docker-rootless-runtime-not-loaded", "docker-rootless-default-runtime-not-loaded"],
                   headline="docker-rootless-runtime-not-loaded")

    s = rootless_docker_host("host-docker-rootless-restarted-healthy", "Alice's rootless dockerd, restarted after "
                             "`nvidia-ctk runtime configure`, runs with the nvidia runtime her daemon.json defines.", no_cgroups=True)
    dockerd_running(s, runtimes=("io.containerd.runc.v2", "nvidia", "runc"), runtime_dir="/run/user/1000")
    yield s.expect("ok", None, [], absent=["docker-rootless-runtime-not-loaded", "docker-rootless-default-runtime-not-loaded"])

    s = rootless_docker_host("host-docker-rootless-daemon-json-broken-while-running", "A trailing comma in Alice's "
                             "rootless daemon.json, written while her rootless dockerd runs with what it read before: her "
                             "containers start now, and its next start fails.", no_cgroups=True)
    s.file("/home/alice/.config/docker/daemon.json", DAEMON_JSON.replace('"nvidia-container-runtime"', '"nvidia-container-runtime",'))
    dockerd_running(s, runtimes=("io.containerd.runc.v2", "nvidia", "runc"), runtime_dir="/run/user/1000")
    yield s.expect("warn", None, ["docker-rootless-config-refused-at-restart"], absent=["docker-rootless-config-refused"],
                   headline="docker-rootless-config-refused-at-restart")

    s = rootless_docker_host("host-docker-rootless-default-undefined-while-running", "Alice's rootless daemon.json lost "
                             "its runtimes section and kept nvidia as the default while her rootless dockerd runs with what "
                             "it read before.", no_cgroups=True)
    s.file("/home/alice/.config/docker/daemon.json", '{\n    "default-runtime": "nvidia"\n}\n')
    dockerd_running(s, runtimes=("io.containerd.runc.v2", "nvidia", "runc"), default="nvidia", runtime_dir="/run/user/1000")
    yield s.expect("warn", None, ["docker-rootless-config-refused-at-restart"],
                   absent=["docker-rootless-default-runtime-undefined"], headline="docker-rootless-config-refused-at-restart")

    s = rootless_docker_host("host-docker-rootless-toolkit-config-hidden", "Alice's rootless Docker on a host whose "
                             "toolkit config.toml a hardening baseline made 0600: gpudoctor, run as alice, cannot read "
                             "it, says so, and judges none of its defaults.")
    s.errors["/etc/nvidia-container-runtime/config.toml"] = "EACCES"
    s.user = {"uid": 1000, "gid": 1000, "groups": [1000]}
    yield s.expect("ok", None, [], info=["container-input-not-permitted"],
                   absent=["toolkit-cgroups-with-rootless-docker", "container-input-unreadable"])

    s = rootless_docker_host("host-docker-rootless-cgroups", "Rootless Docker set up by dockerd-rootless-setuptool.sh, "
                             "the toolkit's no-cgroups left false: its GPU containers fail on the device cgroup "
                             "(libnvidia-container#154).")
    yield s.expect("warn", None, ["toolkit-cgroups-with-rootless-docker"], headline="toolkit-cgroups-with-rootless-docker")

    s = rootless_docker_host("host-docker-rootless-daemon-json-broken", "The rootless daemon's own daemon.json with a "
                             "trailing comma: this user's rootless dockerd does not start.", no_cgroups=True)
    s.file("/home/alice/.config/docker/daemon.json", DAEMON_JSON.replace('"nvidia-container-runtime"', '"nvidia-container-runtime",'))
    yield s.expect("fail", "container", ["docker-rootless-config-refused"], headline="docker-rootless-config-refused")

    s = rootless_docker_host("host-docker-rootless-default-runtime-undefined", "The rootless daemon.json makes nvidia "
                             "the default, with no runtimes section: this user's rootless dockerd does not start.", no_cgroups=True)
    s.file("/home/alice/.config/docker/daemon.json", '{\n    "default-runtime": "nvidia"\n}\n')
    yield s.expect("fail", "container", ["docker-rootless-default-runtime-undefined"], headline="docker-rootless-default-runtime-undefined")

    s = toolkit_host("host-docker-daemon-json-broken", "A hand edit left a trailing comma in daemon.json: dockerd does "
                     "not start at all.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON.replace('"nvidia-container-runtime"', '"nvidia-container-runtime",'))
    yield s.expect("fail", "container", ["docker-config-refused"], headline="docker-config-refused", action="fix-configuration")

    s = toolkit_host("host-docker-not-restarted", "`nvidia-ctk runtime configure --runtime=docker --set-as-default` "
                     "wrote daemon.json, and dockerd was never restarted: the running daemon has neither the nvidia runtime "
                     "nor the new default.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    dockerd_running(s)
    yield s.expect("warn", None, ["docker-runtime-not-loaded", "docker-default-runtime-not-loaded"],
                   headline="docker-runtime-not-loaded")

    s = toolkit_host("host-docker-joined-flags-not-restarted", "The same, where docker.service names its socket and pid "
                     "file with pflag's joined short flags (-Hunix://..., -p...): that dockerd is found and asked.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    s.file("/etc/systemd/system/docker.service.d/10-socket.conf", "[Service]\nExecStart=\nExecStart=/usr/bin/dockerd "
           "-Hunix:///run/docker-gpu.sock -p/run/docker-gpu.pid --containerd=/run/containerd/containerd.sock\n")
    dockerd_running(s, pid_file="/run/docker-gpu.pid", socket="/run/docker-gpu.sock")
    yield s.expect("warn", None, ["docker-runtime-not-loaded", "docker-default-runtime-not-loaded"],
                   headline="docker-runtime-not-loaded")

    s = toolkit_host("host-docker-not-restarted-toolkit-missing", "daemon.json makes nvidia the default runtime, the "
                     "toolkit that provides it is not installed, and dockerd was not restarted since: containers start now "
                     "(through runc, as `docker run` showed on Docker 20.10), and every one fails once dockerd reads the file.",
                     toolkit=False)
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    dockerd_running(s)
    yield s.expect("warn", None, ["docker-runtime-not-loaded", "docker-default-runtime-not-loaded", "docker-runtime-program-missing",
                                  "docker-gpus-unavailable"],
                   absent=["docker-default-runtime-program-missing"], headline="docker-runtime-not-loaded")

    s = toolkit_host("host-docker-restarted-healthy", "daemon.json with the nvidia runtime as its default, and the "
                     "running dockerd loaded both.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    dockerd_running(s, default="nvidia", runtimes=("io.containerd.runc.v2", "nvidia", "runc"))
    yield s.expect("ok", None, [], absent=["docker-runtime-not-loaded", "docker-default-runtime-not-loaded"])

    s = toolkit_host("host-docker-info-denied-healthy", "dockerd runs with the nvidia runtime in daemon.json, and "
                     "gpudoctor runs as a user outside the docker group: the socket refuses it, which is no finding.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    dockerd_running(s, exit=1, stdout="", stderr="cannot connect to dockerd at /var/run/docker.sock: permission denied (EACCES)\n")
    yield s.expect("ok", None, [], absent=["docker-runtime-not-loaded", "docker-default-runtime-not-loaded"])

    s = toolkit_host("host-docker-daemon-json-broken-while-running", "A hand edit left a trailing comma in daemon.json "
                     "while dockerd runs with what it read before: containers start now, and dockerd's next start fails.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON.replace('"nvidia-container-runtime"', '"nvidia-container-runtime",'))
    dockerd_running(s, default="nvidia", runtimes=("io.containerd.runc.v2", "nvidia", "runc"))
    yield s.expect("warn", None, ["docker-config-refused-at-restart"], absent=["docker-config-refused"],
                   headline="docker-config-refused-at-restart")

    s = toolkit_host("host-docker-default-runtime-undefined-while-running", "daemon.json's runtimes section was "
                     "removed, its nvidia default kept, while dockerd runs with what it read before.")
    s.file("/etc/docker/daemon.json", '{\n    "default-runtime": "nvidia"\n}\n')
    dockerd_running(s, default="nvidia", runtimes=("io.containerd.runc.v2", "nvidia", "runc"))
    yield s.expect("warn", None, ["docker-default-runtime-undefined-at-restart"], absent=["docker-default-runtime-undefined"],
                   headline="docker-default-runtime-undefined-at-restart")

    # A drop-in that starts dockerd with a daemon.json of its own (a provisioning tool's, beside the distribution's).
    config_file_drop_in = ("[Service]\nExecStart=\nExecStart=/usr/bin/dockerd -H fd:// --containerd=/run/containerd/containerd.sock "
                           "--config-file /etc/docker/gpu-daemon.json\n")
    s = toolkit_host("host-docker-config-file-flag-healthy", "docker.service's drop-in starts dockerd with --config-file "
                     "/etc/docker/gpu-daemon.json, which defines the nvidia runtime; /etc/docker/daemon.json, which dockerd "
                     "does not read, is broken.")
    s.file("/etc/systemd/system/docker.service.d/override.conf", config_file_drop_in)
    s.file("/etc/docker/gpu-daemon.json", DAEMON_JSON)
    s.file("/etc/docker/daemon.json", DAEMON_JSON.replace('"nvidia-container-runtime"', '"nvidia-container-runtime",'))
    yield s.expect("ok", None, [], absent=["docker-config-refused"])

    s = toolkit_host("host-docker-config-file-flag-broken", "docker.service's drop-in starts dockerd with --config-file "
                     "/etc/docker/gpu-daemon.json, and that file has a trailing comma: dockerd does not start, though "
                     "/etc/docker/daemon.json is fine.")
    s.file("/etc/systemd/system/docker.service.d/override.conf", config_file_drop_in)
    s.file("/etc/docker/gpu-daemon.json", DAEMON_JSON.replace('"nvidia-container-runtime"', '"nvidia-container-runtime",'))
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    yield s.expect("fail", "container", ["docker-config-refused"], headline="docker-config-refused", action="fix-configuration")

    s = toolkit_host("host-docker-config-file-flag-missing", "docker.service's drop-in starts dockerd with --config-file "
                     "/etc/docker/gpu-daemon.json, which was never written: dockerd, which starts without its default file, "
                     "does not start without one its flag names.")
    s.file("/etc/systemd/system/docker.service.d/override.conf", config_file_drop_in)
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    yield s.expect("fail", "container", ["docker-config-refused"], headline="docker-config-refused", action="fix-configuration")

    s = toolkit_host("host-docker-default-runtime-undefined", "daemon.json names nvidia the default runtime, but its "
                     "runtimes section was removed: dockerd does not start.")
    s.file("/etc/docker/daemon.json", '{\n    "default-runtime": "nvidia"\n}\n')
    yield s.expect("fail", "container", ["docker-default-runtime-undefined"], headline="docker-default-runtime-undefined")

    s = toolkit_host("host-docker-runtime-by-flag-healthy", "daemon.json names nvidia the default runtime with no "
                     "runtimes section, and a drop-in of docker.service defines the runtime on dockerd's command line "
                     "(--add-runtime in DOCKER_OPTS of /etc/default/docker, which the drop-in reads): dockerd starts.")
    s.file("/etc/docker/daemon.json", '{\n    "default-runtime": "nvidia"\n}\n')
    s.file("/etc/systemd/system/docker.service.d/gpu.conf",
           "[Service]\nEnvironmentFile=-/etc/default/docker\nExecStart=\n"
           "ExecStart=/usr/bin/dockerd -H fd:// --containerd=/run/containerd/containerd.sock $DOCKER_OPTS\n")
    s.file("/etc/default/docker", 'DOCKER_OPTS="--add-runtime nvidia=/usr/bin/nvidia-container-runtime"\n')
    yield s.expect("ok", None, [], absent=["docker-default-runtime-undefined"])

    # The toolkit built from source into /opt, off systemd's default PATH: dockerd finds the hook and the
    # runtime's bare name only where docker.service gives it a PATH that holds them.
    def toolkit_in_opt(name, description):
        s = toolkit_host(name, description, toolkit=False)
        for program in TOOLKIT_BINARIES:
            s.file(program.replace("/usr/bin/", "/opt/nvidia-container-toolkit/bin/"), "")
        s.file("/etc/docker/daemon.json", DAEMON_JSON)
        return s

    s = toolkit_in_opt("host-docker-toolkit-on-service-path-healthy", "The toolkit built into /opt/nvidia-container-toolkit/bin, "
                       "and docker.service's drop-in puts that directory on dockerd's PATH: `--gpus` and the nvidia default "
                       "runtime (a bare program name in daemon.json) work.")
    s.file("/etc/systemd/system/docker.service.d/path.conf", "[Service]\nEnvironment=\"PATH=/opt/nvidia-container-toolkit/bin:"
           "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\"\n")
    yield s.expect("ok", None, [], absent=["docker-default-runtime-program-missing", "docker-gpus-unavailable"])

    s = toolkit_in_opt("host-docker-toolkit-off-service-path", "The toolkit built into /opt/nvidia-container-toolkit/bin, "
                       "on the admin's shell PATH but not on dockerd's (docker.service sets none): dockerd cannot run its "
                       "nvidia default runtime, so no container starts.")
    yield s.expect("fail", "container", ["docker-default-runtime-program-missing", "docker-gpus-unavailable"],
                   headline="docker-default-runtime-program-missing")

    s = toolkit_host("host-docker-runtime-flag-commented-out", "daemon.json names nvidia the default runtime with no "
                     "runtimes section; docker.service's drop-in once defined it with --add-runtime, but that line is "
                     "commented out: dockerd does not start.")
    s.file("/etc/docker/daemon.json", '{\n    "default-runtime": "nvidia"\n}\n')
    s.file("/etc/systemd/system/docker.service.d/gpu.conf",
           "[Service]\n# ExecStart=\n# ExecStart=/usr/bin/dockerd -H fd:// --add-runtime nvidia=/usr/bin/nvidia-container-runtime\n")
    yield s.expect("fail", "container", ["docker-default-runtime-undefined"], headline="docker-default-runtime-undefined")

    s = toolkit_host("host-docker-toolkit-removed", "The toolkit was removed (apt purge), daemon.json still makes its "
                     "runtime the default: every container fails, and --gpus has no hook.", toolkit=False)
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    yield s.expect("fail", "container", ["docker-default-runtime-program-missing", "docker-gpus-unavailable"],
                   headline="docker-default-runtime-program-missing")

    s = toolkit_host("host-docker-runtime-path-wrong", "daemon.json's nvidia runtime (not the default) points at "
                     "/usr/local/bin, where the program is not: only --runtime nvidia fails.")
    s.file("/etc/docker/daemon.json", '{"runtimes": {"nvidia": {"path": "/usr/local/bin/nvidia-container-runtime"}}}\n')
    yield s.expect("warn", None, ["docker-runtime-program-missing"], headline="docker-runtime-program-missing")

    s = toolkit_host("host-docker-without-toolkit", "Docker on an H100 host without the NVIDIA Container Toolkit: "
                     "`docker run --gpus all` cannot select a device driver.", toolkit=False)
    yield s.expect("warn", None, ["docker-gpus-unavailable"], headline="docker-gpus-unavailable")

    rootless_default = DAEMON_JSON  # nvidia-ctk runtime configure --runtime=docker --set-as-default --config=...
    s = rootless_docker_host("host-docker-rootless-nvidia-default-healthy", "Alice's rootless Docker makes nvidia its "
                             "default runtime; nvidia-container-runtime is on the PATH her unit was written with.",
                             no_cgroups=True)
    s.file("/home/alice/.config/docker/daemon.json", rootless_default)
    yield s.expect("ok", None, [], absent=["docker-rootless-default-runtime-program-missing"])

    s = rootless_docker_host("host-docker-rootless-toolkit-removed", "The toolkit was removed from the host; Alice's "
                             "rootless daemon.json still makes nvidia the default: every container of her rootless "
                             "Docker fails, where the rootful daemon (runc) is not affected.", no_cgroups=True, toolkit=False)
    s.file("/home/alice/.config/docker/daemon.json", rootless_default)
    yield s.expect("fail", "container", ["docker-gpus-unavailable", "docker-rootless-default-runtime-program-missing"],
                   headline="docker-rootless-default-runtime-program-missing", action="fix-configuration")

    s = rootless_docker_host("host-docker-rootless-runtime-off-path", "The toolkit was built from source into "
                             "/usr/local/bin; Alice ran dockerd-rootless-setuptool.sh from a shell whose PATH lacked "
                             "/usr/local/bin, and her daemon.json names the nvidia runtime by a bare name: `--runtime "
                             "nvidia` fails for her, runc works.", no_cgroups=True, toolkit=False)
    for program in ("nvidia-container-runtime", "nvidia-container-runtime-hook", "nvidia-ctk"):
        s.file("/usr/local/bin/" + program, "")
    s.file("/home/alice/.config/systemd/user/docker.service",
           ROOTLESS_DOCKER_UNIT.replace("PATH=/usr/bin:/sbin:/usr/sbin:/usr/local/bin:/usr/bin:/bin",
                                       "PATH=/usr/bin:/sbin:/usr/sbin:/home/alice/bin:/usr/bin:/bin"))
    yield s.expect("warn", None, ["docker-rootless-runtime-program-missing"],
                   headline="docker-rootless-runtime-program-missing")

    s = toolkit_host("host-docker-toolkit-no-cgroups", "no-cgroups = true, set for rootless podman, on a host whose "
                     "rootful dockerd reads the same file.", no_cgroups=True)
    yield s.expect("warn", None, ["toolkit-no-cgroups-with-rootful-docker"], headline="toolkit-no-cgroups-with-rootful-docker")

    s = toolkit_host("host-podman-rootless-cdi-healthy", "Rootless podman through CDI: mode = \"cdi\" and no-cgroups = "
                     "true, as rootless use wants them, a current spec, and no Docker.", no_cgroups=True, mode="cdi")
    del s.files["/usr/bin/dockerd"]
    s.file("/usr/bin/podman", "").file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15"))
    yield s.expect("ok", None, [])

    # Rootless podman reads the CDI specs as the user who runs it: a spec
    # only root may read offers that user no device (podman#17539).
    def rootless_cdi_user(name, description):
        s = toolkit_host(name, description, no_cgroups=True, mode="cdi")
        del s.files["/usr/bin/dockerd"]
        s.file("/usr/bin/podman", "").file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15"))
        s.user = {"uid": 1000, "gid": 1000, "groups": [1000]}
        return s

    s = rootless_cdi_user("host-podman-rootless-cdi-healthy-as-user", "The rootless podman host checked by the user who "
                          "runs podman: the spec (0644) is readable.")
    yield s.expect("ok", None, [], absent=["cdi-spec-unreadable-rootless", "toolkit-cdi-mode-without-spec"])
    s = rootless_cdi_user("host-podman-rootless-cdi-spec-root-only", "The spec was written 0600 (the CDI library's "
                          "cache): the user, and the rootless podman it runs, may not read it.")
    s.errors["/etc/cdi/nvidia.yaml"] = "EACCES"
    yield s.expect("warn", None, ["cdi-spec-unreadable-rootless"], info=["container-input-not-permitted"],
                   absent=["toolkit-cdi-mode-without-spec", "cdi-spec-unreadable"], headline="cdi-spec-unreadable-rootless")
    # The same spec checked as root: read, and its mode says whom it shuts out.
    s = rootless_cdi_user("host-podman-rootless-cdi-spec-root-only-as-root", "The 0600 spec checked as root: root reads "
                          "it, the users who run rootless podman may not.")
    s.user = {"uid": 0, "gid": 0, "groups": []}
    s.owner("/etc/cdi/nvidia.yaml", "0600")
    yield s.expect("warn", None, ["cdi-spec-private-rootless"], absent=["cdi-spec-unreadable-rootless", "toolkit-cdi-mode-without-spec"],
                   headline="cdi-spec-private-rootless")
    s = rootless_cdi_user("host-podman-rootless-cdi-healthy-as-root", "The rootless podman host checked as root, "
                          "its spec 0644 as nvidia-ctk writes it.")
    s.user = {"uid": 0, "gid": 0, "groups": []}
    yield s.expect("ok", None, [], absent=["cdi-spec-private-rootless", "cdi-spec-unreadable-rootless"])

    s = dra_node("host-dra-claim-specs-healthy", "A busy Kubernetes node with NVIDIA's DRA driver: a transient CDI "
                 "spec per resource claim in /var/run/cdi (k8s.gpu.nvidia.com-claim_UID.yaml), 300 of them sorted "
                 "before the toolkit's own nvidia.yaml, in cdi mode. Every spec is read; none is a fault.")
    yield s.expect("ok", None, [], absent=["container-input-unreadable", "toolkit-cdi-mode-without-spec"])

    s = dra_node("host-dra-claim-specs-as-user", "The same DRA node checked by a user: the CDI cache writes each "
                 "claim spec 0600 (os.CreateTemp), so all 300 refuse to be read, and one note says so.")
    for path in list(s.files):
        if "-claim_" in path:
            s.errors[path] = "EACCES"
    s.user = {"uid": 1000, "gid": 1000, "groups": [1000]}
    yield s.expect("ok", None, [], info=["container-input-not-permitted"],
                   absent=["container-input-unreadable", "toolkit-cdi-mode-without-spec"])

    s = toolkit_host("host-toolkit-cdi-mode-without-spec", "mode = \"cdi\", but no spec was ever generated: every "
                     "container the nvidia runtime starts fails.", mode="cdi")
    yield s.expect("fail", "container", ["toolkit-cdi-mode-without-spec", "toolkit-mode-refuses-docker-gpus"],
                   headline="toolkit-cdi-mode-without-spec")

    s = toolkit_host("host-toolkit-mode-refuses-docker-gpus", "mode = \"cdi\" with a current spec: --runtime nvidia "
                     "works, `docker run --gpus` does not.", mode="cdi")
    s.file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15"))
    yield s.expect("warn", None, ["toolkit-mode-refuses-docker-gpus"], headline="toolkit-mode-refuses-docker-gpus")

    s = toolkit_host("host-toolkit-mode-invalid", "mode = \"CDI\": the runtime knows its modes in lower case only.", mode="CDI")
    yield s.expect("fail", "container", ["toolkit-mode-invalid"], headline="toolkit-mode-invalid")

    s = toolkit_host("host-toolkit-ldconfig-missing", "A toolkit config copied from an Ubuntu host onto one whose "
                     "ldconfig is not in /sbin (with or without .real).")
    del s.files["/sbin/ldconfig.real"]
    del s.files["/sbin/ldconfig"]
    yield s.expect("fail", "container", ["toolkit-ldconfig-not-on-host"], headline="toolkit-ldconfig-not-on-host")

    s = toolkit_host("host-toolkit-config-broken", "The toolkit's config.toml lost a closing bracket in a hand edit.")
    s.files["/etc/nvidia-container-runtime/config.toml"] = s.files["/etc/nvidia-container-runtime/config.toml"].replace(
        "[nvidia-ctk]", "[nvidia-ctk")
    yield s.expect("warn", None, ["toolkit-config-unreadable"], headline="toolkit-config-unreadable")
    yield from containerd_scenarios()
    yield from containerd_release_scenarios()
    yield from containerd_daemon_scenarios()
    yield from crio_scenarios()
    yield from crio_daemon_scenarios()


def containerd_scenarios():
    s = toolkit_host("host-containerd2-drop-in-healthy", "containerd 2.x as nvidia-ctk 1.18 configures it: the nvidia "
                     "runtime in conf.d/99-nvidia.toml, imported by config.toml, runc the default (GPU pods ask through "
                     "a RuntimeClass). gpud reported this as broken (leptonai/gpud#1290).")
    del s.files["/usr/bin/dockerd"]
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG)
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD2_NVIDIA_DROP_IN.format(binary="/usr/bin/nvidia-container-runtime"))
    yield s.expect("ok", None, [])

    s = toolkit_host("host-containerd-import-missing", "config.toml imports a file by name that was deleted: "
                     "containerd does not start.")
    del s.files["/usr/bin/dockerd"]
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("'/etc/containerd/conf.d/*.toml'", "'nvidia.toml'"))
    yield s.expect("fail", "container", ["containerd-import-missing"], headline="containerd-import-missing")

    s = toolkit_host("host-containerd-default-runtime-undefined", "A version 2 config that makes nvidia the default, "
                     "while the runtime it defines is called nvidia-container-runtime (the name microk8s's template "
                     "uses): the CRI plugin does not load.")
    del s.files["/usr/bin/dockerd"]
    s.file("/etc/containerd/config.toml", """version = 2
[plugins."io.containerd.grpc.v1.cri".containerd]
  default_runtime_name = "nvidia"
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia-container-runtime]
  runtime_type = "io.containerd.runc.v2"
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia-container-runtime.options]
  BinaryName = "/usr/bin/nvidia-container-runtime"
""")
    yield s.expect("fail", "container", ["containerd-default-runtime-undefined"], headline="containerd-default-runtime-undefined")

    s = toolkit_host("host-k3s-nvidia-default-program-missing", "k3s with nvidia its default runtime, pointing at the "
                     "GPU Operator's /usr/local/nvidia/toolkit, which the operator was removed with: no pod starts.",
                     toolkit=False)
    del s.files["/usr/bin/dockerd"]
    s.file("/var/lib/rancher/k3s/agent/etc/containerd/config.toml", NVIDIA_DEFAULT_OPERATOR_REMOVED + "  SystemdCgroup = true\n")
    yield s.expect("fail", "container", ["containerd-default-runtime-program-missing"],
                   headline="containerd-default-runtime-program-missing")

    s = toolkit_host("host-containerd-nvidia-runtime-program-missing", "containerd 2.x with the nvidia runtime for a "
                     "RuntimeClass, its BinaryName a path where no program is: only GPU pods fail.")
    del s.files["/usr/bin/dockerd"]
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG)
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD2_NVIDIA_DROP_IN.format(binary="/opt/nvidia/nvidia-container-runtime"))
    yield s.expect("warn", None, ["containerd-runtime-program-missing"], headline="containerd-runtime-program-missing")

    s = toolkit_host("host-microk8s-stock-healthy", "microk8s's own containerd template: runtimes kata and "
                     "nvidia-container-runtime named by bare programs on the snap's PATH, runc the default.", toolkit=False)
    del s.files["/usr/bin/dockerd"]
    del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
    s.file("/var/snap/microk8s/current/args/containerd.toml", """version = 2
oom_score = 0
[plugins."io.containerd.grpc.v1.cri"]
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia-container-runtime]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia-container-runtime.options]
        BinaryName = "nvidia-container-runtime"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]
      runtime_type = "io.containerd.kata.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata.options]
        BinaryName = "kata-runtime"
""")
    yield s.expect("ok", None, [])

    s = toolkit_host("host-gpu-operator-cdi-healthy", "A GPU Operator node: its toolkit's config under "
                     "/usr/local/nvidia/toolkit in cdi mode with the operator's kind management.nvidia.com/gpu, the "
                     "spec of that kind in /var/run/cdi, containerd's nvidia runtime pointing at the operator's program.",
                     toolkit=False)
    del s.files["/usr/bin/dockerd"]
    del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
    s.file("/usr/local/nvidia/toolkit/nvidia-container-runtime", "")
    s.file("/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml", TOOLKIT_CONFIG.format(
        no_cgroups="#no-cgroups = false\n", mode='mode = "cdi"\n').replace(
        'default-kind = "nvidia.com/gpu"', 'default-kind = "management.nvidia.com/gpu"').replace(
        'spec-dirs = ["/etc/cdi", "/var/run/cdi"]', 'spec-dirs = ["/var/run/cdi"]'))
    s.file("/var/run/cdi/management.nvidia.com-gpu.yaml", nvidia_ctk_spec("550.54.15").replace(
        "kind: nvidia.com/gpu", "kind: management.nvidia.com/gpu"))
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG)
    s.file("/etc/containerd/conf.d/99-nvidia.toml",
           CONTAINERD2_NVIDIA_DROP_IN.format(binary="/usr/local/nvidia/toolkit/nvidia-container-runtime"))
    yield s.expect("ok", None, [])

    # containerd from its release tarball, as its getting-started guide installs it: the unit in
    # /usr/local/lib/systemd/system; a site's drop-in starts it with a configuration of its own.
    def containerd_started_with(name, description, config):
        s = toolkit_host(name, description)
        del s.files["/usr/bin/dockerd"]
        del s.files["/usr/bin/containerd"]
        del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
        s.file("/usr/local/bin/containerd", "")
        s.file("/usr/local/lib/systemd/system/containerd.service", "[Unit]\nDescription=containerd container runtime\n\n[Service]\n"
               "ExecStartPre=-/sbin/modprobe overlay\nExecStart=/usr/local/bin/containerd\nType=notify\nDelegate=yes\n")
        s.link("/etc/systemd/system/multi-user.target.wants/containerd.service", "/usr/local/lib/systemd/system/containerd.service")
        s.file("/etc/systemd/system/containerd.service.d/10-site.conf",
               f"[Service]\nExecStart=\nExecStart=/usr/local/bin/containerd --config {config}\n")
        return s

    s = containerd_started_with("host-containerd-config-flag-default-program-missing", "containerd started with --config "
                                "/srv/containerd/config.toml (a site drop-in), which makes nvidia the default runtime from the "
                                "GPU Operator's removed /usr/local/nvidia/toolkit; /etc/containerd/config.toml, stock and "
                                "healthy, is not the file it reads: no pod starts.", "/srv/containerd/config.toml")
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG)
    s.file("/srv/containerd/config.toml", NVIDIA_DEFAULT_OPERATOR_REMOVED)
    yield s.expect("fail", "container", ["containerd-default-runtime-program-missing"],
                   headline="containerd-default-runtime-program-missing")

    s = containerd_started_with("host-containerd-config-flag-healthy", "containerd started with --config "
                                "/etc/containerd/site.toml (a site drop-in) holding the nvidia runtime; /etc/containerd/config.toml "
                                "is a half-edited leftover it never reads.", "/etc/containerd/site.toml")
    s.file("/etc/containerd/site.toml", CONTAINERD2_CONFIG)
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD2_NVIDIA_DROP_IN.format(binary="/usr/bin/nvidia-container-runtime"))
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("root = '/var/lib/containerd'", "root = '/var/lib/containerd"))
    yield s.expect("ok", None, [], absent=["containerd-config-unreadable"])

    s = toolkit_host("host-containerd-config-broken", "containerd's config.toml with an unclosed string.")
    del s.files["/usr/bin/dockerd"]
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("root = '/var/lib/containerd'", "root = '/var/lib/containerd"))
    yield s.expect("warn", None, ["containerd-config-unreadable"], headline="containerd-config-unreadable")


def containerd_daemon_scenarios():
    """The running containerd asked what its CRI plugin loaded: containerd reads its files only when it starts."""
    nvidia = ("nvidia", "/usr/bin/nvidia-container-runtime")

    def configured(name, description):
        s = toolkit_host(name, description)
        del s.files["/usr/bin/dockerd"]
        del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
        s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG)
        s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD2_NVIDIA_DROP_IN.format(binary="/usr/bin/nvidia-container-runtime"))
        return s

    s = configured("host-containerd-running-healthy", "containerd 2.x configured by nvidia-ctk and restarted since: "
                   "its CRI plugin loaded runc and nvidia, as the files say.")
    yield containerd_running(s, runtimes=(("runc", None), nvidia)).expect("ok", None, [])

    s = configured("host-containerd-nvidia-not-loaded", "`nvidia-ctk runtime configure --runtime=containerd` without a "
                   "restart: the drop-in defines nvidia, the running containerd has runc alone, and pods of the nvidia "
                   "RuntimeClass fail ('no runtime for \"nvidia\" is configured').")
    yield containerd_running(s).expect("warn", None, ["containerd-runtime-not-loaded"], headline="containerd-runtime-not-loaded")

    s = configured("host-containerd-nvidia-default-not-loaded", "`nvidia-ctk runtime configure --runtime=containerd "
                   "--set-as-default` without a restart: nvidia is the files' default, the running containerd neither has "
                   "it nor runs pods with it.")
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD2_NVIDIA_DROP_IN.format(
        binary="/usr/bin/nvidia-container-runtime").replace('default_runtime_name = "runc"', 'default_runtime_name = "nvidia"'))
    yield containerd_running(s).expect("warn", None, ["containerd-runtime-not-loaded", "containerd-default-runtime-not-loaded"],
                                       headline="containerd-runtime-not-loaded")

    s = configured("host-containerd-import-missing-running", "config.toml gained an import of a file that is not "
                   "there while containerd ran: pods start now, and containerd's next start fails.")
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("'/etc/containerd/conf.d/*.toml'", "'nvidia.toml'"))
    del s.files["/etc/containerd/conf.d/99-nvidia.toml"]
    yield containerd_running(s).expect("warn", None, ["containerd-import-missing-at-restart"], absent=["containerd-import-missing"],
                                       headline="containerd-import-missing-at-restart")

    s = configured("host-containerd-default-undefined-running", "nvidia made the default in the drop-in under a runtime "
                   "of another name while containerd ran: its CRI plugin runs with runc now, and will not load at the next start.")
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD2_NVIDIA_DROP_IN.format(
        binary="/usr/bin/nvidia-container-runtime").replace('default_runtime_name = "runc"', 'default_runtime_name = "nvidia-cdi"'))
    yield containerd_running(s, runtimes=(("runc", None), nvidia)).expect(
        "warn", None, ["containerd-default-runtime-undefined-at-restart", "containerd-default-runtime-not-loaded"],
        absent=["containerd-default-runtime-undefined"], headline="containerd-default-runtime-undefined-at-restart")

    s = toolkit_host("host-k3s-default-program-missing-running", "k3s whose config makes nvidia the default from the GPU "
                     "Operator's removed toolkit, written after k3s's containerd started with runc its default: pods "
                     "start now, and none after its next start.", toolkit=False)
    del s.files["/usr/bin/dockerd"]
    s.file("/var/lib/rancher/k3s/agent/etc/containerd/config.toml", NVIDIA_DEFAULT_OPERATOR_REMOVED)
    yield containerd_running(s, socket="/run/k3s/containerd/containerd.sock").expect(
        "warn", None, ["containerd-default-runtime-program-missing-at-restart", "containerd-default-runtime-not-loaded",
                       "containerd-runtime-not-loaded"],
        absent=["containerd-default-runtime-program-missing"], headline="containerd-default-runtime-program-missing-at-restart")

    s = toolkit_host("host-k3s-default-program-missing-loaded", "The same k3s node whose containerd loaded nvidia as its "
                     "default: every pod fails now.", toolkit=False)
    del s.files["/usr/bin/dockerd"]
    s.file("/var/lib/rancher/k3s/agent/etc/containerd/config.toml", NVIDIA_DEFAULT_OPERATOR_REMOVED)
    yield containerd_running(s, default="nvidia", runtimes=(("runc", None), ("nvidia", "/usr/local/nvidia/toolkit/nvidia-container-runtime")),
                             socket="/run/k3s/containerd/containerd.sock").expect(
        "fail", "container", ["containerd-default-runtime-program-missing"], headline="containerd-default-runtime-program-missing")

    s = configured("host-containerd-cdi-not-loaded", "enable_cdi = true written for the GPU Operator's CDI mode while "
                   "containerd ran with CDI off.")
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("    enable_selinux = false\n", "    enable_selinux = false\n    enable_cdi = true\n"))
    yield containerd_running(s, runtimes=(("runc", None), nvidia), cdi=False).expect(
        "warn", None, ["containerd-cdi-not-loaded"], headline="containerd-cdi-not-loaded")

    s = configured("host-containerd-cdi-loaded-healthy", "enable_cdi = true, and the running containerd loaded it.")
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("    enable_selinux = false\n", "    enable_selinux = false\n    enable_cdi = true\n"))
    yield containerd_running(s, runtimes=(("runc", None), nvidia), cdi=True).expect("ok", None, [])

    s = containerd_node("host-containerd17-refused-running", "Docker's containerd.io 1.7.27, its CRI plugin disabled, given "
                        "an imports line and nvidia-ctk's version 2 drop-in while it ran: it answers on its socket (without "
                        "CRI), its containers start now, and it refuses the files at its next start.", 1, "1.7.27")
    s.file("/etc/containerd/config.toml", 'imports = ["/etc/containerd/conf.d/*.toml"]\n' + CONTAINERD_IO_CONFIG)
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD17_NVIDIA_CTK_DROP_IN)
    yield containerd_running(s, exit=3, stderr="containerd at /run/containerd/containerd.sock serves no CRI runtime service: "
                             "its CRI plugin is disabled or did not load\n").expect(
        "warn", None, ["containerd-refuses-config-at-restart"], absent=["containerd-refuses-config"],
        headline="containerd-refuses-config-at-restart")

    s = toolkit_host("host-docker-containerd-cri-disabled-healthy", "A Docker host: containerd.io's config.toml disables "
                     "the CRI plugin, and containerd, asked, serves no CRI: nothing to judge.")
    s.file("/etc/docker/daemon.json", DAEMON_JSON)
    s.file("/etc/containerd/config.toml", CONTAINERD_IO_CONFIG)
    yield containerd_running(s, exit=3, stderr="containerd at /run/containerd/containerd.sock serves no CRI runtime service: "
                             "its CRI plugin is disabled or did not load\n").expect("ok", None, [])

    s = configured("host-containerd-socket-denied", "A user outside root asks a node whose drop-in lost its file: the "
                   "socket refuses the user, so the files are judged as containerd would read them at its next start.")
    s.user = {"uid": 1000, "gid": 1000, "groups": [1000]}
    s.file("/etc/containerd/config.toml", CONTAINERD2_CONFIG.replace("'/etc/containerd/conf.d/*.toml'", "'nvidia.toml'"))
    del s.files["/etc/containerd/conf.d/99-nvidia.toml"]
    yield containerd_running(s, exit=1, stderr="cannot connect to containerd at /run/containerd/containerd.sock: permission "
                             "denied (EACCES)\n").expect("fail", "container", ["containerd-import-missing"],
                                                          headline="containerd-import-missing")


def crio_host(name, description, toolkit=True, default=False, directory="/usr/bin"):
    """An H100 Kubernetes node on CRI-O as its packages install it, configured by nvidia-ctk for the NVIDIA runtime."""
    s = toolkit_host(name, description, toolkit=toolkit)
    del s.files["/usr/bin/dockerd"]
    del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
    for program in ("/usr/bin/crio", "/usr/libexec/crio/crun", "/usr/libexec/crio/runc", "/usr/libexec/crio/conmon"):
        s.file(program, "")
    if toolkit:  # the toolkit's packages install the runtime under three names, one per mode
        s.file("/usr/bin/nvidia-container-runtime.cdi", "").file("/usr/bin/nvidia-container-runtime.legacy", "")
    s.file("/etc/crio/crio.conf.d/10-crio.conf", CRIO_PACKAGED_DROP_IN)
    s.file("/usr/lib/systemd/system/crio.service", CRIO_SERVICE)
    s.file("/etc/sysconfig/crio", CRIO_SYSCONFIG)
    s.file("/etc/crio/crio.conf.d/99-nvidia.toml", CRIO_NVIDIA_DROP_IN.format(
        default='    default_runtime = "nvidia"\n' if default else "", directory=directory))
    return s


def containerd_program(major, release):
    """containerd as its Makefile builds it: the module it is (/v2 from 2.0 on), the release set with -X."""
    module = "github.com/containerd/containerd" + ("/v2" if major == 2 else "")
    return go_program("go1.23.8" if major == 2 else "go1.22.12", module + "/cmd/containerd", (module, "(devel)"),
                      ldflags=f"-X {module}/version.Version={release} -X {module}/version.Revision=0aa4bc9 -s -w")


# /etc/containerd/config.toml of a containerd 1.7 node as nvidia-ctk up to 1.17 left it (in place, version 2,
# nvidia the default), with the line a cloud's bootstrap adds for its drop-ins.
CONTAINERD17_NVIDIA_CONFIG = """version = 2
imports = ["/etc/containerd/conf.d/*.toml"]

[plugins]

  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "registry.k8s.io/pause:3.9"

    [plugins."io.containerd.grpc.v1.cri".containerd]
      default_runtime_name = "nvidia"

      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes]

        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
          privileged_without_host_devices = false
          runtime_engine = ""
          runtime_root = ""
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
            BinaryName = "/usr/bin/nvidia-container-runtime"
            SystemdCgroup = true

        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
            SystemdCgroup = true
"""

# A registry mirror drop-in, of the kind bootstrap scripts and guides add.
CONTAINERD_REGISTRY_DROP_IN = """version = 2

[plugins."io.containerd.grpc.v1.cri".registry]
  config_path = "/etc/containerd/certs.d"
"""

# A drop-in as nvidia-ctk 1.18 writes it for a version 2 file: config.toml's whole CRI section, copied
# because 1.x replaces sections whole, with the nvidia runtime in it (here already in config.toml).
CONTAINERD17_NVIDIA_CTK_DROP_IN = CONTAINERD17_NVIDIA_CONFIG.replace('imports = ["/etc/containerd/conf.d/*.toml"]\n', "").replace(
    '      default_runtime_name = "nvidia"\n', "")

# A hand-written drop-in that only adds the nvidia runtime, for a RuntimeClass.
CONTAINERD_RUNTIME_ONLY_DROP_IN = """version = 2

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
  runtime_type = "io.containerd.runc.v2"

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
  BinaryName = "/usr/bin/nvidia-container-runtime"
"""

# /etc/containerd/config.toml as Docker's containerd.io package installs it (version 1, the CRI plugin off).
CONTAINERD_IO_CONFIG = """#   Copyright 2018-2022 Docker Inc.

#   Licensed under the Apache License, Version 2.0 (the "License");
#   you may not use this file except in compliance with the License.

disabled_plugins = ["cri"]

#root = "/var/lib/containerd"
#state = "/run/containerd"
#subreaper = true
#oom_score = 0

#[grpc]
#  address = "/run/containerd/containerd.sock"
#  uid = 0
#  gid = 0
"""


def containerd_node(name, description, major, release):
    """An H100 Kubernetes node on containerd of the given release, with the toolkit's packages."""
    s = toolkit_host(name, description)
    del s.files["/usr/bin/dockerd"]
    del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
    s.file("/usr/bin/containerd", containerd_program(major, release))
    return s


def containerd_release_scenarios():
    """containerd 1.x puts an import's plugin section in place of the one before it, whole; 2.0 and later
    merge them key by key (containerd#9982): the same files are judged by the release that reads them."""
    s = containerd_node("host-containerd17-registry-drop-in-drops-nvidia", "containerd 1.7.27 with nvidia its default "
                        "runtime in config.toml, and a registry drop-in in conf.d that names the CRI plugin: the drop-in's "
                        "section takes the place of config.toml's, whole, and the nvidia runtime and the default are gone.",
                        1, "v1.7.27")
    s.file("/etc/containerd/config.toml", CONTAINERD17_NVIDIA_CONFIG)
    s.file("/etc/containerd/conf.d/10-registry.toml", CONTAINERD_REGISTRY_DROP_IN)
    yield s.expect("warn", None, ["containerd-import-drops-runtimes"], headline="containerd-import-drops-runtimes")

    s = containerd_node("host-containerd2-registry-drop-in-healthy", "The same files read by containerd 2.1.4, which "
                        "merges the drop-in key by key: nvidia stays the default.", 2, "v2.1.4")
    s.file("/etc/containerd/config.toml", CONTAINERD17_NVIDIA_CONFIG)
    s.file("/etc/containerd/conf.d/10-registry.toml", CONTAINERD_REGISTRY_DROP_IN)
    yield s.expect("ok", None, [])

    s = containerd_node("host-containerd17-nvidia-ctk-drop-in-healthy", "containerd 1.7.27 with nvidia-ctk 1.18's drop-in, "
                        "which copies config.toml's whole CRI section for this reason: the section is replaced, nothing lost.",
                        1, "v1.7.27")
    s.file("/etc/containerd/config.toml", CONTAINERD17_NVIDIA_CONFIG.replace('      default_runtime_name = "nvidia"\n', ""))
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD17_NVIDIA_CTK_DROP_IN)
    yield s.expect("ok", None, [])

    s = containerd_node("host-containerd17-runtime-only-drop-in", "containerd 1.7.27, config.toml only a version and its "
                        "imports line, and a hand-written drop-in that adds the nvidia runtime alone: its runtimes take the "
                        "place of containerd's own, runc included, and runc stays the default: the CRI plugin does not load.",
                        1, "v1.7.27")
    s.file("/etc/containerd/config.toml", 'version = 2\nimports = ["/etc/containerd/conf.d/*.toml"]\n')
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD_RUNTIME_ONLY_DROP_IN)
    yield s.expect("fail", "container", ["containerd-default-runtime-undefined"], headline="containerd-default-runtime-undefined")

    s = containerd_node("host-containerd2-runtime-only-drop-in-healthy", "The same files read by containerd 2.1.4, which "
                        "keeps its own runc beside the drop-in's nvidia runtime.", 2, "v2.1.4")
    s.file("/etc/containerd/config.toml", 'version = 2\nimports = ["/etc/containerd/conf.d/*.toml"]\n')
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD_RUNTIME_ONLY_DROP_IN)
    yield s.expect("ok", None, [])

    s = containerd_node("host-containerd17-docker-config-version-2-drop-in", "Docker's containerd.io 1.7.27 config.toml "
                        "(version 1, the CRI plugin disabled as \"cri\") given an imports line and nvidia-ctk's version 2 "
                        "drop-in: containerd 1.x then wants every plugin by its full name and does not start.", 1, "1.7.27")
    s.file("/etc/containerd/config.toml", 'imports = ["/etc/containerd/conf.d/*.toml"]\n' + CONTAINERD_IO_CONFIG)
    s.file("/etc/containerd/conf.d/99-nvidia.toml", CONTAINERD17_NVIDIA_CTK_DROP_IN)
    yield s.expect("fail", "container", ["containerd-refuses-config"], headline="containerd-refuses-config")


# cri-o's contrib/sysconfig/crio: its defaults, all commented out.
CRIO_SYSCONFIG = """# /etc/sysconfig/crio

# use "--enable-metrics" and "--metrics-port value"
#CRIO_METRICS_OPTIONS="--enable-metrics"

#CRIO_NETWORK_OPTIONS=
#CRIO_STORAGE_OPTIONS=
"""

# cri-o's contrib/systemd/crio.service, as its packages install it.
CRIO_SERVICE = """[Unit]
Description=Container Runtime Interface for OCI (CRI-O)
Documentation=https://github.com/cri-o/cri-o
Wants=network-online.target
Before=kubelet.service
After=network-online.target

[Service]
Type=notify
EnvironmentFile=-/etc/sysconfig/crio
Environment=GOTRACEBACK=crash
ExecStart=/usr/bin/crio \\
          $CRIO_CONFIG_OPTIONS \\
          $CRIO_RUNTIME_OPTIONS \\
          $CRIO_STORAGE_OPTIONS \\
          $CRIO_NETWORK_OPTIONS \\
          $CRIO_METRICS_OPTIONS
ExecReload=/bin/kill -s HUP $MAINPID

[Install]
WantedBy=multi-user.target
Alias=cri-o.service
"""


def crio_daemon_scenarios():
    """The running crio asked what it runs with: crio reads its runtimes at start and at a reload."""
    packaged = (("crun", "/usr/libexec/crio/crun"), ("runc", "/usr/libexec/crio/runc"))
    nvidia = tuple((name, "/usr/bin/nvidia-container-runtime" + suffix)
                   for name, suffix in (("nvidia", ""), ("nvidia-cdi", ".cdi"), ("nvidia-legacy", ".legacy")))

    s = crio_host("host-crio-running-healthy", "CRI-O configured by nvidia-ctk for RuntimeClasses and reloaded since: "
                  "the running crio has crun, runc and the three nvidia runtimes, crun its default, as the files say.")
    yield crio_running(s, runtimes=packaged + nvidia).expect("ok", None, [])

    s = crio_host("host-crio-nvidia-not-reloaded", "`nvidia-ctk runtime configure --runtime=crio` without a reload: "
                  "the drop-in defines the nvidia runtimes, the running crio has crun and runc, and pods of the nvidia "
                  "RuntimeClass fail ('failed to find runtime handler nvidia from runtime list').")
    yield crio_running(s).expect("warn", None, ["crio-runtime-not-loaded"], headline="crio-runtime-not-loaded",
                                 absent=["crio-default-runtime-not-loaded"])

    s = crio_host("host-crio-nvidia-default-not-reloaded", "nvidia-ctk run again with --set-as-default, without a "
                  "reload: the running crio has the nvidia runtimes from the first run, and crun is still its default.",
                  default=True)
    yield crio_running(s, runtimes=packaged + nvidia).expect(
        "warn", None, ["crio-default-runtime-not-loaded"], headline="crio-default-runtime-not-loaded",
        absent=["crio-runtime-not-loaded"])

    s = crio_host("host-crio-default-undefined-running", "A site drop-in made nvidia CRI-O's default and the toolkit's "
                  "drop-in was deleted while crio ran with crun its default: pods start now; a reload is refused and "
                  "crio's next start fails.")
    del s.files["/etc/crio/crio.conf.d/99-nvidia.toml"]
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", '[crio.runtime]\ndefault_runtime = "nvidia"\n')
    yield crio_running(s, runtimes=packaged + nvidia).expect(
        "warn", None, ["crio-default-runtime-undefined-at-restart", "crio-default-runtime-not-loaded"],
        absent=["crio-default-runtime-undefined"], headline="crio-default-runtime-undefined-at-restart")

    s = crio_host("host-crio-default-undefined-socket-denied", "The same files, asked by a user whom crio's socket "
                  "refuses: what crio runs with is not known, and the files' judgement stands.")
    del s.files["/etc/crio/crio.conf.d/99-nvidia.toml"]
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", '[crio.runtime]\ndefault_runtime = "nvidia"\n')
    yield crio_running(s, exit=1, stderr="cannot connect to crio at /var/run/crio/crio.sock: permission denied (EACCES)\n").expect(
        "fail", "container", ["crio-default-runtime-undefined"], headline="crio-default-runtime-undefined")

    s = crio_host("host-crio-gpu-operator-removed-running", "The files make nvidia the default from the GPU Operator's "
                  "removed /usr/local/nvidia/toolkit, written while crio ran with crun its default: pods start now, and "
                  "crio's next start fails.", toolkit=False, default=True, directory="/usr/local/nvidia/toolkit")
    yield crio_running(s).expect("warn", None, ["crio-default-runtime-program-missing-at-restart", "crio-default-runtime-not-loaded"],
                                 absent=["crio-default-runtime-program-missing", "crio-runtime-not-loaded"],
                                 headline="crio-default-runtime-program-missing-at-restart")

    s = crio_host("host-crio-config-flag-file-missing", "/etc/sysconfig/crio's CRIO_CONFIG_OPTIONS tell crio to read "
                  "/etc/crio/site.conf, which a clean-up removed: crio does not start. (The packaged node, with no "
                  "/etc/crio/crio.conf and nothing naming it, is healthy: host-crio-nvidia-default-healthy.)")
    s.file("/etc/sysconfig/crio", CRIO_SYSCONFIG + 'CRIO_CONFIG_OPTIONS="--config=/etc/crio/site.conf"\n')
    yield s.expect("fail", "container", ["crio-config-file-missing"], headline="crio-config-file-missing",
                   action="fix-configuration")

    s = crio_host("host-crio-config-flag-file-missing-running", "The same, the file removed while crio runs: pods "
                  "start now, and crio's next start fails.")
    s.file("/etc/sysconfig/crio", CRIO_SYSCONFIG + 'CRIO_CONFIG_OPTIONS="--config=/etc/crio/site.conf"\n')
    yield crio_running(s, runtimes=packaged + nvidia).expect(
        "warn", None, ["crio-config-file-missing-at-restart"], absent=["crio-config-file-missing"],
        headline="crio-config-file-missing-at-restart")

    s = crio_host("host-crio-gpu-operator-removed-loaded", "crio started with nvidia its default from the GPU "
                  "Operator's /usr/local/nvidia/toolkit, which was removed since: crio still runs every pod with that "
                  "runtime, whose program is gone, so no pod starts.", toolkit=False, default=True,
                  directory="/usr/local/nvidia/toolkit")
    operator = tuple((name, path.replace("/usr/bin", "/usr/local/nvidia/toolkit")) for name, path in nvidia)
    yield crio_running(s, default="nvidia", runtimes=packaged + operator).expect(
        "fail", "container", ["crio-default-runtime-program-missing"], headline="crio-default-runtime-program-missing")


def crio_scenarios():
    s = crio_host("host-crio-nvidia-default-healthy", "CRI-O with the nvidia runtime its default, written by "
                  "`nvidia-ctk runtime configure --runtime=crio --set-as-default` into crio.conf.d/99-nvidia.toml over "
                  "the package's 10-crio.conf.", default=True)
    yield s.expect("ok", None, [])

    s = crio_host("host-crio-runtime-class-healthy", "CRI-O with nvidia, nvidia-cdi and nvidia-legacy for "
                  "RuntimeClasses, crun the default, as nvidia-ctk writes them without --set-as-default.")
    yield s.expect("ok", None, [])

    s = crio_host("host-crio-default-runtime-undefined", "A site drop-in makes nvidia CRI-O's default, and the "
                  "toolkit's drop-in that defined it was deleted: crio does not start.")
    del s.files["/etc/crio/crio.conf.d/99-nvidia.toml"]
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", '[crio.runtime]\ndefault_runtime = "nvidia"\n')
    yield s.expect("fail", "container", ["crio-default-runtime-undefined"], headline="crio-default-runtime-undefined",
                   action="fix-configuration")

    s = crio_host("host-crio-runtime-by-flag-healthy", "A site drop-in makes nvidia CRI-O's default, and the "
                  "runtime is defined on crio's command line (--runtimes in CRIO_RUNTIME_OPTIONS of /etc/sysconfig/crio, "
                  "which crio.service reads): crio starts, and its runtimes are not judged from the files alone.")
    del s.files["/etc/crio/crio.conf.d/99-nvidia.toml"]
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", '[crio.runtime]\ndefault_runtime = "nvidia"\n')
    s.file("/etc/sysconfig/crio", CRIO_SYSCONFIG +
           'CRIO_RUNTIME_OPTIONS="--runtimes=nvidia:/usr/bin/nvidia-container-runtime:/run/nvidia-runtime"\n')
    yield s.expect("ok", None, [], info=["crio-command-line-not-judged"])

    s = crio_host("host-crio-config-dir-flag-program-missing", "crio.service's CRIO_CONFIG_OPTIONS (in /etc/sysconfig/crio) "
                  "point crio at /etc/crio/site.d, whose drop-in makes nvidia the default with the GPU Operator's removed "
                  "runtime: crio does not start, though /etc/crio/crio.conf.d, which it does not read, is healthy.")
    s.file("/etc/sysconfig/crio", CRIO_SYSCONFIG + 'CRIO_CONFIG_OPTIONS="--config-dir=/etc/crio/site.d"\n')
    s.file("/etc/crio/site.d/10-crio.conf", CRIO_PACKAGED_DROP_IN)
    s.file("/etc/crio/site.d/99-nvidia.toml", CRIO_NVIDIA_DROP_IN.format(default='    default_runtime = "nvidia"\n',
                                                                        directory="/usr/local/nvidia/toolkit"))
    yield s.expect("fail", "container", ["crio-default-runtime-program-missing"], headline="crio-default-runtime-program-missing",
                   absent=["crio-command-line-not-judged"])

    s = crio_host("host-crio-config-dir-variable-healthy", "A drop-in of crio.service sets CONTAINER_CONFIG_DIR to "
                  "/etc/crio/site.d, which holds the package's and the toolkit's drop-ins with nvidia the default; "
                  "/etc/crio/crio.conf.d, which crio does not read, still has a drop-in that makes an undefined runtime "
                  "the default.", default=True)
    s.file("/etc/systemd/system/crio.service.d/10-site.conf", '[Service]\nEnvironment="CONTAINER_CONFIG_DIR=/etc/crio/site.d"\n')
    s.file("/etc/crio/site.d/10-crio.conf", CRIO_PACKAGED_DROP_IN)
    s.file("/etc/crio/site.d/99-nvidia.toml", s.files["/etc/crio/crio.conf.d/99-nvidia.toml"])
    del s.files["/etc/crio/crio.conf.d/99-nvidia.toml"]
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", '[crio.runtime]\ndefault_runtime = "kata"\n')
    yield s.expect("ok", None, [], absent=["crio-default-runtime-undefined", "crio-command-line-not-judged"])

    s = crio_host("host-crio-hooks-dir-flag-default-runtime-undefined", "A site drop-in makes nvidia CRI-O's default "
                  "and no file defines it; crio.service's override names another hooks directory (--hooks-dir in "
                  "CRIO_RUNTIME_OPTIONS). That flag changes the hooks, not the runtimes: crio still does not start, and "
                  "gpudoctor still says so.")
    del s.files["/etc/crio/crio.conf.d/99-nvidia.toml"]
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", '[crio.runtime]\ndefault_runtime = "nvidia"\n')
    s.file("/etc/systemd/system/crio.service.d/override.conf",
           '[Service]\nEnvironment="CRIO_RUNTIME_OPTIONS=--hooks-dir=/opt/site/hooks.d"\n')
    yield s.expect("fail", "container", ["crio-default-runtime-undefined"], headline="crio-default-runtime-undefined",
                   info=["crio-command-line-not-judged"], action="fix-configuration")

    s = crio_host("host-crio-many-drop-ins", "A site drop-in makes nvidia CRI-O's default and the toolkit's "
                  "99-nvidia.toml defines it, with 20 drop-ins of a configuration tool between them: gpudoctor reads 16 "
                  "files, so it says which it left out and judges no runtime, where the nvidia table it did not read "
                  "would have made it fail a node that starts.")
    s.file("/etc/crio/crio.conf.d/20-gpu-default.conf", '[crio.runtime]\ndefault_runtime = "nvidia"\n')
    for i in range(20):
        s.file(f"/etc/crio/crio.conf.d/50-site-{i:02d}.conf", f"[crio.runtime]\npids_limit = {4096 + i}\n")
    yield s.expect("warn", None, ["container-input-unreadable"], headline="container-input-unreadable",
                   absent=["crio-default-runtime-undefined"])

    s = crio_host("host-crio-gpu-operator-removed", "CRI-O's default runtime points at the GPU Operator's "
                  "/usr/local/nvidia/toolkit, which was removed with the operator: crio does not start.",
                  toolkit=False, default=True, directory="/usr/local/nvidia/toolkit")
    yield s.expect("fail", "container", ["crio-default-runtime-program-missing"],
                   headline="crio-default-runtime-program-missing")

    s = crio_host("host-crio-runtime-class-program-missing", "The toolkit was removed; its drop-in still defines "
                  "the nvidia runtimes for RuntimeClasses: crio drops them, and only GPU pods fail.", toolkit=False)
    yield s.expect("warn", None, ["crio-runtime-program-missing"], headline="crio-runtime-program-missing")

    s = crio_host("host-crio-config-broken", "A drop-in with a table header left open in a hand edit.")
    s.file("/etc/crio/crio.conf.d/50-gpu.conf", "[crio.runtime\n")
    yield s.expect("warn", None, ["crio-config-unreadable"], headline="crio-config-unreadable")
