"""The workload's view: GPUs a scheduler gave this process (Slurm's gres/gpu
with ConstrainDevices, enroot and pyxis under Slurm) and GPUs a host keeps for
its virtual machines (Proxmox, libvirt). Each healthy twin is built from what
the real tool sets (SchedMD/slurm gres_common.c and task_cgroup_devices.c,
NVIDIA/enroot conf/hooks/98-nvidia.sh and conf/mounts, proxmox/qemu-server
PCI.pm), and stays quiet; each failure is named at its own depth."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403

BUSES = ["18", "2a", "3a", "5d"]


def slurm_node(name, description, opens, job_gpus=None, step_gpus=None, cuda_visible=None, job="4711", step="batch"):
    """A 4-GPU node under Slurm's task/cgroup with ConstrainDevices=yes and
    cgroup v2: every /dev/nvidiaN stays in /dev, and the job's eBPF device
    program refuses (EPERM) those of GPUs it was not given. opens: each
    minor's open result."""
    s = Snapshot(name, description).plain_vm_pci()
    s.nvidia_driver("550.90.07")
    for index, bus in enumerate(BUSES):
        bdf = f"0000:{bus}:00.0"
        s.pci(bdf, "10de", "2330", "030200", driver="nvidia")
        s.claimed(bdf, "NVIDIA H100 80GB HBM3", index)
    s.driver_nodes(range(4), version="550.90.07")
    for minor, result in enumerate(opens):
        s.devices[f"/dev/nvidia{minor}"]["open"] = result
    s.file("/usr/bin/nvidia-modprobe", "")
    s.file("/proc/self/cgroup", f"0::/system.slice/slurmstepd.scope/job_{job}/step_{step}/user/task_0\n")
    s.env.update({"SLURM_JOB_ID": job, "SLURM_JOB_NAME": "train", "SLURM_NODELIST": "gpu-a01"})
    # gres_common_gpu_set_env: the global list into SLURM_JOB_GPUS (batch) or
    # SLURM_STEP_GPUS (srun), the local one (ConstrainDevices) into CUDA_VISIBLE_DEVICES.
    if job_gpus is not None:
        s.env["SLURM_JOB_GPUS"] = job_gpus
    if step_gpus is not None:
        s.env["SLURM_STEP_GPUS"] = step_gpus
    given = step_gpus if step_gpus is not None else job_gpus
    if given is not None:
        count = len(given.split(","))
        s.env["SLURM_GPUS_ON_NODE"] = str(count)
        s.env["CUDA_VISIBLE_DEVICES"] = cuda_visible if cuda_visible is not None else ",".join(str(i) for i in range(count))
        s.env["GPU_DEVICE_ORDINAL"] = s.env["CUDA_VISIBLE_DEVICES"]
    return s


def enroot_container(s, image="nvcr.io#nvidia/pytorch:24.05-py3"):
    """pyxis ran the step in an enroot container: /dev bind-mounted from the
    host (conf/mounts 10-system.fstab), the hook's nvidia-container-cli
    --no-cgroups (a tmpfs /proc/driver/nvidia), the image's
    NVIDIA_VISIBLE_DEVICES=all beside Slurm's variables."""
    s.file("/etc/rc", f"# enroot-provenance: docker://{image}\nexec \"$@\"\n")
    s.file("/etc/rc.local", "# This file is sourced by /etc/rc when the container starts.\n")
    s.file("/proc/self/mountinfo",
           "601 580 0:52 /pyxis_4711.0 / rw,relatime - overlay overlay rw\n"
           "640 601 0:6 / /dev rw,nosuid,noexec - devtmpfs devtmpfs rw\n"
           "655 601 0:74 / /proc/driver/nvidia rw,nosuid,nodev,noexec - tmpfs tmpfs rw,mode=555\n")
    s.env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    return s


def given_one_of_four(s):
    """What the driver answers a process that may open one of the four GPUs."""
    s.cuda_probe(devices=[cuda_device(bus="3A")], mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(bus="3A")])
    s.smi(stdout="0, 550.90.07, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000002, 00000000:3A:00.0, 9.0, "
                 "81559, 0, Disabled, Enabled, Default\n")
    return s


def given_none(s):
    """What the driver answers a process that may open none of the GPUs."""
    s.cuda_probe(init=100, init_name="CUDA_ERROR_NO_DEVICE", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[])
    s.smi(exit=6, stdout="No devices were found\n")
    return s


def proxmox_host(name, description):
    """A Proxmox VE host whose RTX 3090 (and its audio function) is passed
    through to VM 101, as the Administration Guide sets it up."""
    s = Snapshot(name, description).plain_vm_pci()
    s.uname["release"] = "6.8.12-4-pve"
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="vfio-pci", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.file("/sys/bus/pci/devices/0000:01:00.0/driver_override", "(null)\n")
    s.file("/etc/modprobe.d/vfio.conf", "options vfio-pci ids=10de:2204,10de:1aef disable_vga=1\n")
    s.file("/etc/modprobe.d/blacklist-gpu.conf", "blacklist nouveau\nblacklist nvidia\nblacklist nvidiafb\n")
    s.file("/etc/pve/qemu-server/101.conf", "boot: order=scsi0\ncores: 8\nhostpci0: 0000:01:00,pcie=1,x-vga=1\n"
                                            "machine: q35\nmemory: 32768\n\n[before-upgrade]\nhostpci0: 0000:02:00\n")
    s.loaded("vfio_pci", "vfio_iommu_type1", "vfio")
    return s


def scenarios():
    # Slurm: a job given one GPU of four; the other three are refused by design.
    s = slurm_node("slurm-job-one-of-four-healthy", "A Slurm batch job given 1 of the node's 4 H100s (--gres=gpu:1, "
                   "ConstrainDevices=yes): its own GPU opens, the other three are refused by the job's device cgroup, as designed.",
                   ["EPERM", "EPERM", "ok", "EPERM"], job_gpus="2")
    yield given_one_of_four(s).expect("ok", None, [], info=["device-open-refused-outside-allocation", "libcuda-unversioned-missing"],
                                      absent=["device-open-denied"])

    s = slurm_node("slurm-step-two-of-four-healthy", "An srun step given GPUs 1 and 3 (SLURM_STEP_GPUS=1,3, "
                   "CUDA_VISIBLE_DEVICES=0,1 as local indices): two open, two are refused by design.",
                   ["EPERM", "ok", "EPERM", "ok"], job_gpus="1,3", step_gpus="1,3", step="0")
    s.cuda_probe(devices=[cuda_device(0, bus="2A"), cuda_device(1, bus="5D")], mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    yield s.expect("ok", None, [], info=["device-open-refused-outside-allocation", "libcuda-unversioned-missing"],
                   absent=["device-open-denied"])

    s = slurm_node("slurm-job-without-gpu", "A Slurm job submitted without --gres=gpu: Slurm unsets every GPU variable and the "
                   "job's cgroup refuses all four GPUs. The cause is the request, not a broken cgroup or container.",
                   ["EPERM"] * 4)
    yield given_none(s).expect("fail", "device-nodes", ["slurm-job-without-gpu", "cuda-init-no-device", "nvidia-smi-failed"],
                               info=["device-open-refused-outside-allocation"], absent=["device-open-denied"],
                               headline="slurm-job-without-gpu")

    s = slurm_node("slurm-job-without-gpu-unconstrained", "A Slurm job without --gres=gpu on a node without ConstrainDevices: "
                   "every GPU opens and CUDA works, on GPUs Slurm may have given other jobs.", ["ok"] * 4)
    s.cuda_probe(devices=[cuda_device(i, bus=bus.upper()) for i, bus in enumerate(BUSES)],
                 mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    yield s.expect("warn", None, ["slurm-job-without-gpu"], headline="slurm-job-without-gpu")

    s = slurm_node("slurm-allocated-gpu-refused", "Slurm gave the job GPUs 1 and 3, but gres.conf lists the device files in "
                   "another order than Slurm's index: one GPU it was given is refused, one it was not opens.",
                   ["EPERM", "EPERM", "ok", "EPERM"], job_gpus="1,3")
    s.cuda_probe(devices=[cuda_device(bus="3A")], mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    yield s.expect("fail", "device-nodes", ["allocated-gpu-refused", "device-open-denied"], headline="allocated-gpu-refused")

    # enroot under pyxis: the same allocation inside a container, /dev shared with the host.
    s = enroot_container(slurm_node("enroot-pyxis-step-healthy", "srun --gres=gpu:1 --container-image=... (pyxis): an enroot "
                                    "container whose /dev is the host's; the step's GPU opens, the others are refused by "
                                    "Slurm's cgroup, as designed.", ["EPERM", "EPERM", "ok", "EPERM"], job_gpus="2",
                                    step_gpus="2", step="0"))
    yield given_one_of_four(s).expect("ok", None, [], info=["device-open-refused-outside-allocation"],
                                      absent=["device-open-denied", "container-gpu-not-injected"])

    s = enroot_container(slurm_node("enroot-pyxis-step-without-gpu", "A pyxis container step of a job given no GPU: the "
                                    "image asks for all GPUs, Slurm's cgroup refuses every one. Ask Slurm, not the "
                                    "container runtime.", ["EPERM"] * 4, step="0"))
    yield given_none(s).expect("fail", "device-nodes", ["slurm-job-without-gpu", "cuda-init-no-device", "nvidia-smi-failed"],
                               info=["device-open-refused-outside-allocation"], absent=["device-open-denied"],
                               headline="slurm-job-without-gpu")

    # Kubernetes: the device plugin gave the pod one GPU by UUID, and the toolkit injected its nodes alone.
    def k8s_pod(name, description, opens):
        s = h100_host(name, description)
        s.in_docker(legacy=True)
        s.files.pop("/.dockerenv")
        s.file("/proc/self/cgroup", "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod42.slice/cri-containerd-9a.scope\n")
        s.env.update({"KUBERNETES_SERVICE_HOST": "10.96.0.1", "NVIDIA_VISIBLE_DEVICES": "GPU-00000000-0000-0000-0000-000000000000",
                      "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
        for node in s.devices.values():
            node["open"] = opens
            if opens != "ok":
                node.pop("driver_version", None)
        return s

    s = k8s_pod("k8s-pod-allocated-gpu-healthy", "A pod given nvidia.com/gpu: 1: its one GPU's nodes injected and open "
                "(device-nodes.allocation by kubernetes, honoured).", "ok")
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [], info=["libcuda-unversioned-missing"], absent=["device-open-denied"])

    s = k8s_pod("k8s-pod-allocated-gpu-refused", "A pod's allocated GPU is refused by its device cgroup after `systemctl "
                "daemon-reload` on the node (NVIDIA/nvidia-container-toolkit#48): a fault, not the allocation.", "EPERM")
    s.smi(exit=255, stdout="Failed to initialize NVML: Unknown Error\n")
    s.nvml_probe(init=999, init_name="Unknown Error")
    s.cuda_probe(init=100, init_name="CUDA_ERROR_NO_DEVICE")
    yield s.expect("fail", "device-nodes", ["device-open-denied", "nvidia-smi-failed", "nvml-init-failed", "cuda-init-no-device"],
                   absent=["device-open-refused-outside-allocation"], headline="device-open-denied")

    # A host that keeps its GPU for a VM.
    s = proxmox_host("proxmox-gpu-held-for-vm", "A Proxmox VE host whose only GPU is passed through to VM 101: vfio-pci holds "
                     "it, nvidia is blacklisted on purpose, and no NVIDIA driver is installed. Nothing here is broken.")
    yield s.expect("ok", None, [], info=["gpu-held-for-vm"],
                   absent=["nvidia-blacklisted", "nvidia-module-not-loaded", "gpu-bound-to-vfio", "libcuda-not-found"])

    s = proxmox_host("proxmox-host-gpu-blacklisted", "A Proxmox host with a second GPU for itself (an L4 for its containers): "
                     "the blacklist written for the passthrough keeps nvidia from driving it.")
    s.pci("0000:81:00.0", "10de", "27b8", "030200")
    s.driver_userspace("550.90.07")
    yield s.expect("fail", "kernel-module", ["nvidia-blacklisted", "nvidia-module-not-loaded"], info=["gpu-held-for-vm"],
                   headline="nvidia-blacklisted")

    s = Snapshot("libvirt-gpu-held-for-vm", "A libvirt host whose GPU a managed hostdev bound to vfio-pci through "
                 "driver_override, while the host's own GPU runs CUDA.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia")
    s.nvidia_driver("550.54.15").claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], version="550.54.15")
    s.file("/usr/bin/nvidia-modprobe", "")
    s.pci("0000:3b:00.0", "10de", "2330", "030200", driver="vfio-pci")
    s.file("/sys/bus/pci/devices/0000:3b:00.0/driver_override", "vfio-pci\n")
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [], info=["gpu-held-for-vm", "libcuda-unversioned-missing"], absent=["gpu-bound-to-vfio"])
