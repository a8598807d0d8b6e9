"""Evidence that is missing, odd or only half there: an unreadable PCI bus,
WSL1, vfio, dropped and excluded GPUs, wrong nodes, truncated /proc files."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    s = Snapshot("host-pci-unreadable", "sysfs hides the PCI bus (EACCES), so no GPU can be seen.")
    s.errors["/sys/bus/pci/devices"] = "EACCES"
    yield s.expect("warn", None, ["pci-bus-unreadable"], headline="pci-bus-unreadable")

    s = Snapshot("wsl1-no-gpu", "WSL1: a Microsoft kernel string and no /dev/dxg.")
    s.uname["release"] = "4.4.0-19041-Microsoft"
    yield s.expect("fail", "hardware", ["wsl1-has-no-gpu"], headline="wsl1-has-no-gpu")

    s = Snapshot("wsl2-no-dxg", "WSL2 without GPU paravirtualization: no /dev/dxg.")
    s.uname["release"] = "5.10.16.3-microsoft-standard-WSL2"
    wsl_libraries(s)
    yield s.expect("fail", "device-nodes", ["wsl-dxg-missing"], headline="wsl-dxg-missing")

    s = h100_host("host-vfio-passthrough", "Two GPUs: one for this host, one bound to vfio-pci for a VM.")
    s.pci("0000:3b:00.0", "10de", "2330", "030200", driver="vfio-pci")
    yield s.expect("warn", None, ["gpu-bound-to-vfio"], headline="gpu-bound-to-vfio")

    s = Snapshot("host-gpu-dropped-by-driver", "A Tesla K40 (Kepler) next to driver 570, which dropped Kepler after 470.")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "1024", "030200", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("570.133.20").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="570.133.20")
    yield s.expect("fail", "kernel-module", ["gpu-dropped-by-driver", "no-gpu-device-node"], absent=["gpu-not-claimed"], headline="gpu-dropped-by-driver")

    s = Snapshot("host-gpu-not-claimed", "An RTX 4090 that driver 550 supports but did not claim (RmInitAdapter failed).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2684", "030000")
    s.nvidia_driver("550.54.15").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="550.54.15")
    yield s.expect("fail", "kernel-module", ["gpu-not-claimed", "no-gpu-device-node"], headline="gpu-not-claimed")

    s = h100_host("host-gpu-excluded", "The driver claimed the GPU but marked it excluded.")
    s.claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0, excluded="Yes")
    yield s.expect("warn", None, ["gpu-excluded-by-driver"], headline="gpu-excluded-by-driver")

    s = h100_host("host-nouveau-also-loaded", "nvidia drives the GPU, but nouveau is loaded too.")
    s.loaded("nouveau")
    yield s.expect("warn", None, ["competing-driver-loaded"], headline="competing-driver-loaded")

    s = h100_host("host-module-versions-disagree", "/proc/driver/nvidia/version and /sys/module/nvidia/version differ.")
    s.file("/sys/module/nvidia/version", "550.54.14\n")
    yield s.expect("warn", None, ["kernel-module-versions-disagree"], headline="kernel-module-versions-disagree")

    s = h100_host("host-old-driver-silent-ioctl", "Driver 525 does not answer the version query (before 530.30.02).",
                  version="525.147.05")
    s.devices["/dev/nvidiactl"]["driver_version"] = ""
    s.files.pop("/usr/bin/nvidia-smi")
    yield s.expect("ok", None, [], info=["driver-version-query-unanswered", "nvidia-smi-not-on-path"])

    s = h100_host("container-visible-none", "NVIDIA_VISIBLE_DEVICES=none: libraries injected, no GPU by design.")
    s.in_docker(legacy=True).env["NVIDIA_VISIBLE_DEVICES"] = "none"
    del s.devices["/dev/nvidia0"]
    yield s.expect("fail", "container", ["container-gpu-none"], absent=["no-gpu-device-node"], headline="container-gpu-none")

    s = h100_host("host-node-wrong-kind", "/dev/nvidia0 is a plain file, not a device (created by hand).")
    s.device("/dev/nvidia0", 0, 0, mode="0644", kind="file", open_result=None)
    yield s.expect("fail", "device-nodes", ["device-node-wrong-kind"], headline="device-node-wrong-kind")

    s = h100_host("host-node-wrong-number", "/dev/nvidiactl carries the numbers 195:0 instead of 195:255.")
    s.device("/dev/nvidiactl", 195, 0, driver_version="550.54.15")
    yield s.expect("fail", "device-nodes", ["device-node-wrong-number"], headline="device-node-wrong-number")

    # Who makes a missing or misnumbered node when libcuda first opens the
    # driver (ground truth: the H200's dev-none-root and dev-none-nobody).
    # Without live evidence (a static build, --no-probe) CAP_MKNOD decides.
    may_mknod, no_mknod = "Name:\tgpudoctor\nCapEff:\t000001ffffffffff\n", "Name:\tgpudoctor\nCapEff:\t0000000000000000\n"
    s = h100_host("host-nodes-missing-caller-may-mknod",
                  "No /dev/nvidia*, checked by root with CAP_MKNOD and no live evidence: libcuda will create them for this caller.")
    for node in ("/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"):
        s.devices.pop(node, None)
    s.file("/proc/self/status", may_mknod)
    yield s.expect("warn", None, ["nvidiactl-missing", "gpu-device-node-missing"], headline="nvidiactl-missing")

    s = h100_host("host-nodes-missing-no-mknod",
                  "No /dev/nvidia*, checked by a user without CAP_MKNOD (no setuid nvidia-modprobe): CUDA will fail for it.")
    for node in ("/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"):
        s.devices.pop(node, None)
    s.file("/proc/self/status", no_mknod)
    yield s.expect("fail", "device-nodes", ["nvidiactl-missing", "gpu-device-node-missing"], headline="nvidiactl-missing")

    s = h100_host("host-uvm-node-missing-caller-may-mknod",
                  "nvidia_uvm loaded, /dev/nvidia-uvm missing, checked by root with CAP_MKNOD: libcuda creates it for this caller.")
    for node in ("/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"):
        s.devices.pop(node, None)
    s.file("/proc/self/status", may_mknod)
    yield s.expect("warn", None, ["nvidia-uvm-node-missing"], headline="nvidia-uvm-node-missing")

    s = h100_host("host-node-wrong-number-caller-may-mknod",
                  "/dev/nvidiactl carries 195:0, checked by root with CAP_MKNOD: libcuda replaces the node for this caller.")
    s.device("/dev/nvidiactl", 195, 0, driver_version="550.54.15")
    s.file("/proc/self/status", may_mknod)
    yield s.expect("warn", None, ["device-node-wrong-number"], headline="device-node-wrong-number")

    s = h100_host("container-nodes-missing-caller-may-mknod",
                  "A container without the GPU's nodes, root with CAP_MKNOD (Docker's default): the device cgroup decides, so it fails.")
    s.devices.clear()
    s.in_docker(legacy=False).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    s.file("/proc/self/status", may_mknod)
    yield s.expect("fail", "container", ["container-gpu-not-injected", "nvidiactl-missing"], headline="container-gpu-not-injected")

    s = h100_host("host-gpu-fell-off-bus", "Opening /dev/nvidia0 fails with ENXIO: the GPU is gone (Xid 79).")
    s.devices["/dev/nvidia0"]["open"] = "ENXIO"
    yield s.expect("fail", "device-nodes", ["device-open-failed"], headline="device-open-failed")

    s = h100_host("host-truncated-proc-version", "/proc/driver/nvidia/version cut off in the middle of the version.")
    s.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.5")
    yield s.expect("warn", None, ["kernel-module-input-unreadable"], absent=["driver-version-ioctl-mismatch"], headline="kernel-module-input-unreadable")
    yield from disputed_scenarios()


def disputed_scenarios():
    # The layers disagree: the PCI view shows no NVIDIA GPU, yet the nvidia
    # module claims one and its nodes exist (a hypervisor that hides the
    # function from the guest's sysfs, or a platform gpudoctor does not know).
    # No failure on the one missing source: a warning saying what disagrees.
    s = Snapshot("host-gpu-off-pci-but-claimed", "No NVIDIA function on the PCI bus, yet nvidia 550.54.15 is loaded, "
                 "claims a GPU and made /dev/nvidia0: the layers disagree, so the PCI view alone fails nothing.")
    s.plain_vm_pci()
    s.nvidia_driver("550.54.15").claimed("0000:00:05.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], version="550.54.15")
    yield s.expect("warn", None, ["no-nvidia-gpu"], headline="no-nvidia-gpu")
