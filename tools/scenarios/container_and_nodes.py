"""The container layer and the device nodes: GPUs not requested or injected,
cgroups, capabilities, node permissions and the driver's version ioctl."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    s = h100_host("container-no-gpu-access", "docker run without --gpus: the host's PCI and /proc are visible, no nodes.")
    s.devices.clear()
    s.in_docker(legacy=False)
    yield s.expect("fail", "container", ["container-gpu-not-requested", "nvidiactl-missing"], headline="container-gpu-not-requested")

    s = h100_host("container-not-injected", "An nvidia/cuda image (NVIDIA_VISIBLE_DEVICES=all by default) run by plain runc.")
    s.devices.clear()
    s.in_docker(legacy=False).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    yield s.expect("fail", "container", ["container-gpu-not-injected", "nvidiactl-missing"], headline="container-gpu-not-injected")

    s = h100_host("container-visible-void", "NVIDIA_VISIBLE_DEVICES=void: the runtime injected nothing.")
    s.devices.clear()
    s.in_docker(legacy=False).env["NVIDIA_VISIBLE_DEVICES"] = "void"
    yield s.expect("fail", "container", ["container-gpu-void", "nvidiactl-missing"], headline="container-gpu-void")

    s = h100_host("container-healthy-legacy", "docker --gpus all: legacy hook, every node injected and openable.")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    yield s.expect("ok", None, [])

    s = h100_host("container-cgroup-denied", "Nodes present and mode 0666, but the device cgroup refuses the open (FC-21).")
    s.in_docker(legacy=True).env["NVIDIA_VISIBLE_DEVICES"] = "all"
    for node in s.devices.values():
        node["open"] = "EPERM"
        node.pop("driver_version", None)
    s.smi(exit=255, stdout="Failed to initialize NVML: Unknown Error\n")
    s.nvml_probe(init=999, init_name="Unknown Error")
    yield s.expect("fail", "device-nodes", ["device-open-denied", "nvidia-smi-failed", "nvml-init-failed"], headline="device-open-denied")

    # A security module refuses with EACCES what the mode allows; a device
    # cgroup refuses with EPERM (security/device_cgroup.c, kernel/bpf/cgroup.c).
    def confined(name, description, label, opens=True):
        s = h100_host(name, description)
        s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
        if label is not None:
            s.file("/proc/self/attr/current", label)
        if not opens:
            for node in s.devices.values():
                node["open"] = "EACCES"
                node.pop("driver_version", None)
            s.smi(exit=255, stdout="Failed to initialize NVML: Insufficient Permissions\n")
            s.nvml_probe(init=4, init_name="Insufficient Permissions")
        return s

    selinux = "system_u:system_r:container_t:s0:c214,c918\0"
    denials = ["device-open-denied", "device-open-denied-by-selinux", "device-open-denied-by-apparmor", "device-open-denied-eacces"]
    s = confined("container-selinux-devices-denied", "Docker on Fedora with SELinux enforcing and container_use_devices off: the "
                 "container domain may not open the nodes its mode allows (NVIDIA/nvidia-container-toolkit#33).", selinux, opens=False)
    yield s.expect("fail", "device-nodes", ["device-open-denied-by-selinux", "nvidia-smi-failed", "nvml-init-failed"],
                   absent=[d for d in denials if d != "device-open-denied-by-selinux"], headline="device-open-denied-by-selinux",
                   action="fix-configuration")
    s = confined("container-selinux-healthy", "The same SELinux-confined container once container_use_devices is on: every node opens.", selinux)
    yield s.expect("ok", None, [], absent=denials)
    s = confined("container-apparmor-devices-denied", "A container under a custom AppArmor profile that leaves out /dev/nvidia*.",
                 "gpu-jobs (enforce)\n", opens=False)
    yield s.expect("fail", "device-nodes", ["device-open-denied-by-apparmor", "nvidia-smi-failed", "nvml-init-failed"],
                   absent=[d for d in denials if d != "device-open-denied-by-apparmor"], headline="device-open-denied-by-apparmor")
    s = confined("container-apparmor-healthy", "Docker's docker-default AppArmor profile, which lets the nodes open.", "docker-default (enforce)\n")
    yield s.expect("ok", None, [], absent=denials)
    s = confined("container-open-eacces-unlabelled", "EACCES on nodes the mode allows, and no SELinux or AppArmor label on the "
                 "process: a module gpudoctor cannot name, or a nodev mount.", None, opens=False)
    yield s.expect("fail", "device-nodes", ["device-open-denied-eacces", "nvidia-smi-failed", "nvml-init-failed"],
                   absent=[d for d in denials if d != "device-open-denied-eacces"], headline="device-open-denied-eacces")
    # nodev is checked before any security module is asked (fs/namei.c may_open).
    docker_mounts = ("1071 1000 0:62 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A\n"
                     "1099 1071 0:74 / /proc/driver/nvidia rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=555\n")
    s = confined("container-dev-tmpfs-nodev", "A container started with --tmpfs /dev:nodev over the nodes the toolkit "
                 "made: every open is EACCES, whatever the mode.", None, opens=False)
    s.file("/proc/self/mountinfo", docker_mounts + "1100 1071 0:80 / /dev rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,size=65536k,mode=755\n")
    yield s.expect("fail", "device-nodes", ["device-open-denied-nodev", "nvidia-smi-failed", "nvml-init-failed"],
                   absent=denials, headline="device-open-denied-nodev", action="fix-configuration")
    s = confined("container-dev-tmpfs-healthy", "Docker's own /dev tmpfs (nosuid, no nodev) and a nodev /dev/shm: every node opens.", None)
    s.file("/proc/self/mountinfo", docker_mounts + "1100 1071 0:80 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755\n"
           "1101 1100 0:81 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,size=65536k\n")
    yield s.expect("ok", None, [], absent=denials + ["device-open-denied-nodev"])

    s = h100_host("container-bad-capability", "NVIDIA_DRIVER_CAPABILITIES holds a word the toolkit rejects.")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "0", "NVIDIA_DRIVER_CAPABILITIES": "compute,gpu"})
    yield s.expect("fail", "container", ["container-driver-capability-invalid"], headline="container-driver-capability-invalid")

    s = h100_host("host-node-permissions", "Nodes crw-rw---- root:video and a user outside video (FC-23).")
    for node in s.devices.values():
        node.update({"mode": "0660", "gid": 44, "open": "EACCES"})
        node.pop("driver_version", None)
    s.user = {"uid": 1000, "gid": 1000, "groups": [27, 1000]}
    yield s.expect("fail", "device-nodes", ["device-node-permission-denied"], absent=["device-open-denied"], headline="device-node-permission-denied")

    s = h100_host("host-gpu-node-missing", "Two GPUs claimed, but only /dev/nvidia0 exists.")
    s.pci("0000:3b:00.0", "10de", "2330", "030200", driver="nvidia").claimed("0000:3b:00.0", "NVIDIA H100 80GB HBM3", 1)
    yield s.expect("fail", "device-nodes", ["gpu-device-node-missing"], headline="gpu-device-node-missing")

    s = h100_host("host-ioctl-version-mismatch", "/proc says 550.54.14, the driver behind /dev/nvidiactl says 550.54.15.",
                  version="550.54.14")
    s.devices["/dev/nvidiactl"]["driver_version"] = "550.54.15"
    yield s.expect("fail", "device-nodes", ["driver-version-ioctl-mismatch"], headline="driver-version-ioctl-mismatch")
