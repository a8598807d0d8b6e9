"""Container engines beyond Docker's: Apptainer/Singularity (--nv binds the
host's libraries into /.singularity.d/libs, --nvccli runs nvidia-container-cli)
and LXD/Incus/LXC (a gpu device passes the nodes, nvidia.runtime has LXC's
nvidia hook run nvidia-container-cli). Each engine's healthy container, and
the failure a user of that engine meets, with that engine's fix."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403

APPTAINER_LIBS = "/.singularity.d/libs"


def apptainer(name, description, nv=True, ld_library_path=APPTAINER_LIBS):
    """An H100 host's Apptainer container: the host's /dev is shared (so the
    nodes are there with or without --nv), the image is a plain Ubuntu."""
    s = h100_host(name, description)
    for path in [p for p in s.files if p.startswith("/usr/lib/x86_64-linux-gnu/lib") and "nvidia" in p or "libcuda" in p]:
        del s.files[path]
    s.links = {path: target for path, target in s.links.items() if "libcuda" not in path and "nvidia" not in path}
    s.files.pop("/usr/bin/nvidia-smi", None)
    s.env.update({"APPTAINER_CONTAINER": "/home/user/pytorch.sif", "APPTAINER_NAME": "pytorch.sif",
                  "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"})
    s.file("/.singularity.d/env/99-base.sh", "# set by apptainer build\n").file("/.singularity.d/runscript", "#!/bin/sh\n")
    s.directory(APPTAINER_LIBS)
    if ld_library_path is not None:
        s.env["LD_LIBRARY_PATH"] = ld_library_path
    s.file("/proc/self/mountinfo", "1021 1020 7:3 / / ro,nodev,relatime - squashfs /dev/loop3 ro\n")
    if nv:
        # --nv binds each library of nvliblist.conf that the host's ld.so.cache lists, by its cache name.
        for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                             ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"),
                             ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
            s.file(f"{APPTAINER_LIBS}/{soname}", tiny_elf(soname, ["libc.so.6"]))
        s.file("/usr/bin/nvidia-smi", "")
    return s


def lxd(name, description, gpu_device=True, nvidia_runtime=True):
    """An Ubuntu container under LXD on an H100 host: nvidia.runtime=true has
    LXC's nvidia hook run nvidia-container-cli (a tmpfs /proc/driver/nvidia,
    the driver's libraries mounted); a gpu device passes the nodes."""
    s = h100_host(name, description)
    s.file("/dev/.lxd-mounts/.placeholder", "").file("/proc/1/environ", "container=lxc\0TERM=linux\0")
    s.file("/proc/self/cgroup", "0::/\n")
    mounts = ["400 300 0:41 / / rw,relatime shared:1 - zfs default/containers/c1 rw"]
    if nvidia_runtime:
        mounts.append("430 400 0:55 / /proc/driver/nvidia rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=555,uid=1000000")
    else:
        for path in [p for p in s.files if "libcuda" in p or "libnvidia" in p]:
            del s.files[path]
        s.links = {path: target for path, target in s.links.items() if "libcuda" not in path and "libnvidia" not in path}
        s.files.pop("/usr/bin/nvidia-smi", None)
    if not gpu_device:
        s.devices.clear()
    s.file("/proc/self/mountinfo", "\n".join(mounts) + "\n")
    return s


def scenarios():
    yield apptainer("apptainer-nv-healthy", "apptainer exec --nv on an H100 host: the driver's libraries bound into "
                    "/.singularity.d/libs, which LD_LIBRARY_PATH names.").expect("ok", None, [])

    s = apptainer("apptainer-nvccli-healthy", "apptainer exec --nvccli: nvidia-container-cli set the container up "
                  "(a tmpfs /proc/driver/nvidia, the libraries at their usual path).", nv=False)
    s.driver_userspace("550.54.15")
    s.file("/proc/self/mountinfo", "1021 1020 7:3 / / ro,nodev,relatime - squashfs /dev/loop3 ro\n"
           "1030 1021 0:60 / /proc/driver/nvidia rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=555\n")
    yield s.expect("ok", None, [])

    s = apptainer("apptainer-without-nv", "apptainer exec without --nv: the host's /dev is there, its driver libraries "
                  "are not; Docker's --gpus advice would not help.", nv=False)
    yield s.expect("fail", "container", ["apptainer-without-nv", "libcuda-not-found"], headline="apptainer-without-nv")

    s = apptainer("apptainer-nv-ld-library-path-replaced", "--nv bound the libraries, but the image's %environment "
                  "set LD_LIBRARY_PATH=/opt/app/lib, dropping /.singularity.d/libs.", ld_library_path="/opt/app/lib")
    yield s.expect("fail", "container", ["apptainer-nv-libs-off-loader-path", "libcuda-off-loader-path"],
                   headline="apptainer-nv-libs-off-loader-path")

    yield lxd("lxd-nvidia-runtime-healthy", "An LXD container with a gpu device and nvidia.runtime=true: LXC's "
              "nvidia hook mounted the driver's libraries.").expect("ok", None, [])

    s = lxd("lxd-nvidia-runtime-off", "An LXD container with a gpu device but nvidia.runtime unset: the nodes are "
            "there, the driver's libraries are not.", nvidia_runtime=False)
    yield s.expect("fail", "container", ["lxd-nvidia-runtime-off", "libcuda-not-found"], headline="lxd-nvidia-runtime-off")

    s = lxd("lxd-gpu-device-missing", "An LXD container with nvidia.runtime=true but no gpu device: the libraries "
            "came in, no device node did.", gpu_device=False)
    yield s.expect("fail", "container", ["lxd-gpu-device-missing", "container-gpu-not-requested", "nvidiactl-missing"],
                   headline="lxd-gpu-device-missing")
    yield from more_scenarios()
    yield from cdi_scenarios()


def rootless_podman(name, description, keep_groups):
    """Rootless podman on an H100 host whose nodes are crw-rw---- root:video
    (a distribution's udev rule): the user is in video on the host. Inside
    the user namespace root and video are unmapped, so the nodes show as
    65534:65534; the process keeps the group only with --group-add keep-groups,
    where it too shows as 65534."""
    s = h100_host(name, description)
    for node in s.devices.values():
        node.update({"mode": "0660", "uid": 65534, "gid": 65534})
    s.in_docker(legacy=True)
    del s.files["/.dockerenv"]
    s.file("/run/.containerenv", 'engine="podman-4.9.3"\nname="train"\nimage="docker.io/nvidia/cuda:12.4.1-base-ubuntu22.04"\nrootless=1\n')
    s.file("/proc/self/uid_map", "         0       1000          1\n         1     100000      65536\n")
    s.env.update({"container": "podman", "NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    s.user = {"uid": 0, "gid": 0, "groups": [65534] if keep_groups else []}
    if not keep_groups:
        for node in s.devices.values():
            node["open"] = "EACCES"
            node.pop("driver_version", None)
    return s


def more_scenarios():
    s = rootless_podman("podman-rootless-keep-groups-healthy", "Rootless podman with --group-add keep-groups on nodes "
                        "that only video may open: the kept group opens them.", keep_groups=True)
    yield s.expect("ok", None, [])

    s = rootless_podman("podman-rootless-groups-dropped", "Rootless podman without keep-groups on nodes that only video "
                        "may open: the user is in video on the host, but not in here.", keep_groups=False)
    s.nvml_probe(init=4, init_name="Insufficient Permissions")
    yield s.expect("fail", "container", ["user-namespace-drops-device-group", "device-node-permission-denied", "nvml-init-failed"],
                   headline="user-namespace-drops-device-group")


def nvidia_ctk_spec(version, lib="/usr/lib/x86_64-linux-gnu", uvm_major=None):
    """/etc/cdi/nvidia.yaml as `nvidia-ctk cdi generate` writes it for one GPU
    and driver `version`: per-device nodes, the shared nodes, the driver's
    libraries mounted by their versioned names, and its hooks. uvm_major:
    the UVM nodes pin that major, as a spec edited by hand or copied from
    another boot does (nvidia-ctk leaves the numbers out)."""
    uvm = "".join(f"  - path: /dev/{name}\n" + (f"    major: {uvm_major}\n    minor: {minor}\n" if uvm_major else "")
                  for name, minor in (("nvidia-uvm", 0), ("nvidia-uvm-tools", 1)))
    mounts = "".join(f"  - hostPath: {lib}/{stem}.{version}\n    containerPath: {lib}/{stem}.{version}\n"
                     f"    options:\n    - ro\n    - nosuid\n    - nodev\n    - rbind\n    - rprivate\n"
                     for stem in ("libcuda.so", "libnvidia-ml.so", "libnvidia-ptxjitcompiler.so", "libnvidia-nvvm.so"))
    return ("---\ncdiVersion: 0.5.0\ncontainerEdits:\n  deviceNodes:\n  - path: /dev/nvidia-modeset\n" + uvm +
            "  - path: /dev/nvidiactl\n"
            "  env:\n  - NVIDIA_VISIBLE_DEVICES=void\n  hooks:\n  - args:\n    - nvidia-cdi-hook\n    - create-symlinks\n"
            f"    - --link\n    - libcuda.so.1::{lib}/libcuda.so\n    hookName: createContainer\n"
            "    path: /usr/bin/nvidia-cdi-hook\n  - args:\n    - nvidia-cdi-hook\n    - update-ldcache\n"
            f"    - --folder\n    - {lib}\n    hookName: createContainer\n    path: /usr/bin/nvidia-cdi-hook\n"
            "  mounts:\n" + mounts +
            "devices:\n- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n  name: \"0\"\n"
            "- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n  name: GPU-00000000-0000-0000-0000-000000000000\n"
            "- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n  name: all\nkind: nvidia.com/gpu\n")


def cdi_scenarios():
    s = h100_host("host-cdi-spec-current", "An H100 host whose /etc/cdi/nvidia.yaml was generated for the running driver "
                  "(550.54.15), with nvidia-cdi-refresh enabled.")
    s.file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15")).file("/usr/bin/nvidia-cdi-hook", "")
    s.file("/usr/lib/systemd/system/nvidia-cdi-refresh.path", "[Path]\n")
    s.link("/etc/systemd/system/multi-user.target.wants/nvidia-cdi-refresh.path", "/usr/lib/systemd/system/nvidia-cdi-refresh.path")
    s.file("/etc/cdi/amd.json", '{"cdiVersion": "0.6.0", "kind": "amd.com/gpu", "devices": [{"name": "0", "containerEdits": '
           '{"deviceNodes": [{"path": "/dev/dri/renderD128"}]}}]}\n')  # another vendor's: not ours to judge
    yield s.expect("ok", None, [])

    s = h100_host("host-cdi-spec-stale-after-upgrade", "The driver was upgraded to 570.133.20, but /etc/cdi/nvidia.yaml "
                  "still mounts 550.54.15's libraries, which the upgrade removed: every CDI container fails to start.",
                  version="570.133.20")
    s.file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15")).file("/usr/bin/nvidia-cdi-hook", "")
    yield s.expect("fail", "container", ["cdi-spec-for-other-driver", "cdi-spec-host-paths-missing"],
                   headline="cdi-spec-for-other-driver")

    # nvidia-cdi-refresh.service greps modules.dep before it runs; toolkit
    # 1.18.1's pattern wants ".ko:", so DKMS's compressed nvidia.ko.xz never
    # matches and the spec is never written (NVIDIA/nvidia-container-toolkit#1517).
    def cdi_refresh_host(name, description, pattern, prefix=""):
        s = h100_host(name, description)
        s.file(f"/lib/modules/{KERNEL}/modules.dep", "kernel/fs/ext4/ext4.ko.xz: kernel/fs/jbd2/jbd2.ko.xz\n"
               "updates/dkms/nvidia.ko.xz:\nupdates/dkms/nvidia-uvm.ko.xz: updates/dkms/nvidia.ko.xz\n")
        s.file("/usr/lib/systemd/system/nvidia-cdi-refresh.service", "[Unit]\nConditionPathExists=/usr/bin/nvidia-ctk\n\n"
               "[Service]\nType=oneshot\nEnvironment=NVIDIA_CTK_CDI_OUTPUT_FILE_PATH=/var/run/cdi/nvidia.yaml\n"
               f"ExecCondition={prefix}/usr/bin/grep -qE '{pattern}' /lib/modules/%v/modules.dep\n"
               "ExecStart=/usr/bin/nvidia-ctk cdi generate\nRemainAfterExit=yes\n")
        s.file("/usr/lib/systemd/system/nvidia-cdi-refresh.path", "[Path]\nPathChanged=/lib/modules/%v/modules.dep\n")
        s.link("/etc/systemd/system/multi-user.target.wants/nvidia-cdi-refresh.path", "/usr/lib/systemd/system/nvidia-cdi-refresh.path")
        s.file("/usr/bin/nvidia-ctk", "")
        return s

    s = cdi_refresh_host("host-cdi-refresh-skipped-xz-module", "Debian with DKMS's compressed nvidia.ko.xz and toolkit "
                         "1.18.1's refresh unit, whose condition wants '.ko:': the service is skipped, no spec is written.",
                         "/(nvidia|nvidia-current)\\\\.ko[:]")
    yield s.expect("warn", None, ["cdi-refresh-never-runs"], headline="cdi-refresh-never-runs")
    s = cdi_refresh_host("host-cdi-refresh-runs-xz-module", "The same host with the refresh unit's later pattern, "
                         "which any module suffix matches.", "/(nvidia|nvidia-current)\\\\.ko")
    s.file("/var/run/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15")).file("/usr/bin/nvidia-cdi-hook", "")
    yield s.expect("ok", None, [], absent=["cdi-refresh-never-runs"])
    # "-": systemd takes the condition's failure for success and runs the service anyway.
    s = cdi_refresh_host("host-cdi-refresh-condition-failure-ignored", "1.18.1's pattern, which misses nvidia.ko.xz, "
                         "in a condition whose failure is ignored ('-'): the service runs and writes the spec.",
                         "/(nvidia|nvidia-current)\\\\.ko[:]", prefix="-")
    s.file("/var/run/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15")).file("/usr/bin/nvidia-cdi-hook", "")
    yield s.expect("ok", None, [], absent=["cdi-refresh-never-runs"])

    # nvidia-uvm's major is given at module load; a spec that pins the
    # numbers of another boot makes a node in every CDI container that reaches
    # no driver: cuInit 999 there (NVIDIA/nvidia-container-toolkit#1934).
    s = h100_host("host-cdi-spec-uvm-major-stale", "/etc/cdi/nvidia.yaml pins nvidia-uvm at major 509, but the module "
                  "got 510 on this boot.")
    s.file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15", uvm_major=509)).file("/usr/bin/nvidia-cdi-hook", "")
    yield s.expect("fail", "container", ["cdi-spec-device-numbers-stale"], absent=["cdi-spec-host-paths-missing"],
                   headline="cdi-spec-device-numbers-stale")
    s = h100_host("host-cdi-spec-uvm-major-pinned-current", "/etc/cdi/nvidia.yaml pins nvidia-uvm's numbers, and they "
                  "are this boot's.")
    s.file("/etc/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15", uvm_major=510)).file("/usr/bin/nvidia-cdi-hook", "")
    yield s.expect("ok", None, [], absent=["cdi-spec-device-numbers-stale"])

    # A pod that mounts the host's /var/run/cdi (a device plugin or validator pod, or a user's hostPath volume),
    # itself started through that spec: the spec's host paths are the host's, never looked for in here.
    def cdi_container_with_spec(name, description, mounted=("libcuda.so", "libnvidia-ml.so", "libnvidia-ptxjitcompiler.so", "libnvidia-nvvm.so")):
        s = h100_host(name, description)
        s.in_docker(legacy=False).env.update({"NVIDIA_VISIBLE_DEVICES": "void", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
        s.file("/etc/ld.so.conf.d/00-nvcr-2961453620.conf", "/usr/lib/x86_64-linux-gnu\n")
        s.file("/var/run/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15"))
        for stem in ("libcuda.so", "libnvidia-ml.so", "libnvidia-ptxjitcompiler.so", "libnvidia-nvvm.so"):
            if stem not in mounted:
                s.files.pop(f"/usr/lib/x86_64-linux-gnu/{stem}.550.54.15", None)
        s.files.pop("/usr/bin/nvidia-modprobe", None)  # the host's tools are not in the image
        return s

    s = cdi_container_with_spec("container-cdi-spec-visible-healthy", "A CDI container that can read the spec it was started "
                                "from (/var/run/cdi mounted in): every library the spec mounts is here, its host paths are not looked for.")
    yield s.expect("ok", None, [], absent=["cdi-spec-host-paths-missing", "cdi-spec-mounts-missing-in-container"])

    s = cdi_container_with_spec("container-cdi-spec-visible-mount-missing", "A CDI container started before the spec was "
                                "regenerated: the spec now mounts libnvidia-nvvm, which this container never got.",
                                mounted=("libcuda.so", "libnvidia-ml.so", "libnvidia-ptxjitcompiler.so"))
    yield s.expect("warn", None, ["cdi-spec-mounts-missing-in-container"], absent=["cdi-spec-host-paths-missing"],
                   headline="cdi-spec-mounts-missing-in-container")

    s = h100_host("host-cdi-spec-damaged", "A half-written /var/run/cdi/nvidia.yaml (the disk filled up during "
                  "nvidia-ctk cdi generate): engines skip it.")
    s.file("/var/run/cdi/nvidia.yaml", nvidia_ctk_spec("550.54.15")[:200] + "\n  - path: [unclosed\n")
    yield s.expect("warn", None, ["cdi-spec-unreadable"], headline="cdi-spec-unreadable")
