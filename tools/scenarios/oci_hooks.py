"""OCI hooks as podman and CRI-O read them (containers/common pkg/hooks):
every *.json of their hooks directories, NVIDIA's hook as nvidia-ctk and the
toolkit's packages write it, a site's own hooks, and the ways each breaks.
podman reads them for each container it creates; crio at start, where the
first file that fails stops it, and again whenever a file changes while it
runs, when it leaves out the files it refuses. A missing program is dropped
without a word."""

import json

from scenarios.host_engines import crio_host, crio_running, toolkit_host
from scenarios.snapshot import *  # noqa: F401,F403

HOOKS_DIR = "/usr/share/containers/oci/hooks.d"

# containers-common's /usr/share/containers/containers.conf: hooks_dir is commented out (the default directory).
CONTAINERS_CONF = """[containers]
#default_capabilities = [
#  "CHOWN",
#]

[engine]
#cgroup_manager = "systemd"
#hooks_dir = [
#  "/usr/share/containers/oci/hooks.d",
#]
"""


def nvidia_hook(program="/usr/bin/nvidia-container-runtime-hook"):
    """oci-nvidia-hook.json as nvidia-ctk writes it (pkg/config/ocihook: two-space json.Encoder, the
    program's directory added to PATH where it is not a standard one)."""
    path = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
    directory = program.rsplit("/", 1)[0]
    if directory not in path:
        path.append(directory)
    hook = {"version": "1.0.0",
            "hook": {"path": program, "args": [program.rsplit("/", 1)[1], "prestart"], "env": ["PATH=" + ":".join(path)]},
            "when": {"always": True, "commands": [".*"]},
            "stages": ["prestart"]}
    return json.dumps(hook, indent=2) + "\n"


def site_hook(program, stages='["precreate"]'):
    """A site's own hook, as an administrator writes one by hand."""
    return ('{\n  "version": "1.0.0",\n  "hook": {"path": "%s", "args": ["%s"]},\n  "when": {"annotations": {"^audit$": "^on$"}},\n'
            '  "stages": %s\n}\n' % (program, program.rsplit("/", 1)[1], stages))


def podman_host(name, description, toolkit=True):
    """An H100 RHEL-style host with podman and crun as their packages install them, and no Docker."""
    s = toolkit_host(name, description, toolkit=toolkit)
    del s.files["/usr/bin/dockerd"]
    del s.links["/etc/systemd/system/multi-user.target.wants/docker.service"]
    s.file("/usr/bin/podman", "").file("/usr/bin/crun", "").file("/usr/share/containers/containers.conf", CONTAINERS_CONF)
    return s


def scenarios():
    s = podman_host("host-podman-nvidia-hook-healthy", "podman with NVIDIA's hook as the toolkit's packages install it, and a "
                    "site's audit hook at precreate, a stage podman knows.")
    s.file(HOOKS_DIR + "/oci-nvidia-hook.json", nvidia_hook())
    s.file("/usr/libexec/oci/hooks.d/site-audit", "").file(HOOKS_DIR + "/50-site-audit.json", site_hook("/usr/libexec/oci/hooks.d/site-audit"))
    yield s.expect("ok", None, [], absent=["podman-oci-hooks-refused", "oci-nvidia-hook-program-missing"])

    s = podman_host("host-podman-hook-refused", "A site hook written by hand with stages as a string, not a list: podman "
                    "refuses every container, with a GPU or without ('setting up OCI Hooks').")
    s.file(HOOKS_DIR + "/oci-nvidia-hook.json", nvidia_hook())
    s.file("/usr/libexec/oci/hooks.d/site-audit", "")
    s.file(HOOKS_DIR + "/50-site-audit.json", site_hook("/usr/libexec/oci/hooks.d/site-audit", stages='"prestart"'))
    yield s.expect("fail", "container", ["podman-oci-hooks-refused"], headline="podman-oci-hooks-refused")

    s = podman_host("host-podman-hooks-missing-program-first", "A removed tool's hook sorts before a broken one: hooks.New "
                    "ignores a directory whose first error is a missing program, so podman drops both and starts containers.")
    s.file(HOOKS_DIR + "/10-removed-tool.json", site_hook("/opt/removed-tool/hook", stages='["prestart"]'))
    s.file(HOOKS_DIR + "/50-site-audit.json", site_hook("/usr/libexec/oci/hooks.d/site-audit", stages='"prestart"'))
    yield s.expect("ok", None, [], absent=["podman-oci-hooks-refused"])

    s = podman_host("host-podman-nvidia-hook-program-missing", "The toolkit removed with dnf, its hook left in hooks.d: "
                    "podman drops it without a word, and CUDA containers start without a GPU.", toolkit=False)
    s.file(HOOKS_DIR + "/oci-nvidia-hook.json", nvidia_hook("/usr/bin/nvidia-container-toolkit"))
    yield s.expect("warn", None, ["oci-nvidia-hook-program-missing"], headline="oci-nvidia-hook-program-missing")

    # containers.conf's attributed arrays (containers/common 0.57, podman 4.8): {append=true} adds a site's
    # directory to the default one, where a plain array puts it in the default's place.
    def site_hooks_dir(name, description, append):
        s = podman_host(name, description)
        s.file("/etc/containers/containers.conf.d/50-site-hooks.conf", '[engine]\nhooks_dir = ["/etc/containers/oci/hooks.d"%s]\n'
               % (", {append=true}" if append else ""))
        s.file("/etc/containers/oci/hooks.d/oci-nvidia-hook.json", nvidia_hook())
        s.file("/usr/libexec/oci/hooks.d/site-audit", "")
        s.file(HOOKS_DIR + "/50-site-audit.json", site_hook("/usr/libexec/oci/hooks.d/site-audit", stages='"prestart"'))
        return s

    s = site_hooks_dir("host-podman-hooks-dir-appended", "A site's drop-in appends /etc/containers/oci/hooks.d to podman's "
                       "hooks directories ({append=true}); the default directory still holds a hook written with stages as "
                       "a string: podman reads both and refuses every container.", append=True)
    yield s.expect("fail", "container", ["podman-oci-hooks-refused"], headline="podman-oci-hooks-refused")

    s = site_hooks_dir("host-podman-hooks-dir-replaced-healthy", "The same files, the drop-in's hooks_dir without {append=true}: "
                       "it replaces the default directory, whose broken hook podman then never reads.", append=False)
    yield s.expect("ok", None, [], absent=["podman-oci-hooks-refused", "oci-nvidia-hook-program-missing"])

    s = crio_host("host-crio-gpu-operator-hook-healthy", "CRI-O set up by the GPU Operator in hook mode "
                  "(CRIO_CONFIG_MODE=hook): the hook runs the toolkit's program under /usr/local/nvidia/toolkit.")
    s.file("/usr/local/nvidia/toolkit/nvidia-container-runtime-hook", "")
    s.file(HOOKS_DIR + "/oci-nvidia-hook.json", nvidia_hook("/usr/local/nvidia/toolkit/nvidia-container-runtime-hook"))
    yield s.expect("ok", None, [], absent=["crio-oci-hooks-refused", "oci-nvidia-hook-program-missing"])

    s = crio_host("host-crio-podman-precreate-hook", "A hook written for podman (stage precreate) in the hooks.d CRI-O "
                  "shares: crio refuses it at start, so the node runs no pod.")
    s.file("/usr/libexec/oci/hooks.d/site-audit", "").file(HOOKS_DIR + "/50-site-audit.json", site_hook("/usr/libexec/oci/hooks.d/site-audit"))
    yield s.expect("fail", "container", ["crio-oci-hooks-refused"], headline="crio-oci-hooks-refused")

    s = crio_host("host-crio-podman-precreate-hook-running", "The same hook written while crio runs: crio rereads the "
                  "directory, leaves the file out and keeps running pods; its next start fails.")
    s.file("/usr/libexec/oci/hooks.d/site-audit", "").file(HOOKS_DIR + "/50-site-audit.json", site_hook("/usr/libexec/oci/hooks.d/site-audit"))
    crio_running(s, runtimes=(("crun", "/usr/libexec/crio/crun"), ("runc", "/usr/libexec/crio/runc"),
                              ("nvidia", "/usr/bin/nvidia-container-runtime"), ("nvidia-cdi", "/usr/bin/nvidia-container-runtime.cdi"),
                              ("nvidia-legacy", "/usr/bin/nvidia-container-runtime.legacy")))
    yield s.expect("warn", None, ["crio-oci-hooks-refused-at-restart"], absent=["crio-oci-hooks-refused"],
                   headline="crio-oci-hooks-refused-at-restart")
