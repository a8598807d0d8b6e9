"""Integrated GPUs on the platform bus: Jetson (Tegra SoCs, L4T / JetPack).
There is no PCI function: the device tree names the SoC, /etc/nv_tegra_release
the L4T release, nvgpu (JetPack 4-6) or the open nvidia module (JetPack 7)
drives the GPU, libcuda lives in L4T's own directory, and the container
toolkit's CSV mode mounts what /etc/nvidia-container-runtime/host-files-for-container.d
lists (nvidia-container-toolkit internal/platform-support/tegra)."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403

L4T_LIB = "/usr/lib/aarch64-linux-gnu/nvidia"  # JetPack 6 (TARGET_USERSPACE_LIB_DIR=nvidia); JetPack 4/5: .../tegra
CSV_DIR = "/etc/nvidia-container-runtime/host-files-for-container.d"

# What a JetPack 6.1 Orin shows (L4T R36.4.0, kernel 5.15-tegra, nvgpu out of tree).
TEGRA_RELEASE_R36 = ("# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64, "
                     "DATE: Fri Sep 13 04:36:44 UTC 2024\n# KERNEL_VARIANT: oot\nTARGET_USERSPACE_LIB_DIR=nvidia\n"
                     "TARGET_USERSPACE_LIB_DIR_PATH=usr/lib/aarch64-linux-gnu/nvidia\n")
ORIN_COMPATIBLE = b"nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0"
ORIN_MODEL = b"NVIDIA Jetson AGX Orin Developer Kit\0"
# The device nodes nvgpu and nvmap create (the toolkit's devices.csv lists them).
NVGPU_NODES = {"/dev/nvmap": (10, 121), "/dev/nvhost-ctrl-gpu": (508, 0), "/dev/nvhost-gpu": (508, 1),
               "/dev/nvhost-as-gpu": (508, 2), "/dev/nvgpu/igpu0/ctrl": (507, 0), "/dev/nvgpu/igpu0/channel": (507, 1)}


def jetson(name, description, soc=("tegra234", ORIN_COMPATIBLE, ORIN_MODEL), release=TEGRA_RELEASE_R36,
           lib=L4T_LIB, nvgpu_loaded=True, nodes=True):
    s = Snapshot(name, description)
    s.uname.update({"release": "5.15.148-tegra", "version": "#1 SMP PREEMPT Mon Sep 9 16:35:17 PDT 2024", "machine": "aarch64"})
    # The platform bus: no NVIDIA PCI function (the PCIe root ports are the SoC's own, vendor 10de class 0604).
    s.pci("0001:00:00.0", "10de", "229e", "060400", driver="pcieport", subsystem=("10de", "0000"))
    _, compatible, model = soc
    s.file("/proc/device-tree/compatible", compatible).file("/proc/device-tree/model", model)
    s.file("/sys/devices/soc0/family", "Tegra\n").file("/sys/devices/soc0/soc_id", "35\n")
    if release:
        s.file("/etc/nv_tegra_release", release)
    s.directory("/sys/bus/platform/devices")
    gpu_dir = "/sys/devices/platform/bus@0/17000000.gpu"
    s.link("/sys/bus/platform/devices/17000000.gpu", "../../../devices/platform/bus@0/17000000.gpu")
    s.file(gpu_dir + "/of_node/compatible", b"nvidia,ga10b\0")
    if nvgpu_loaded:
        s.link(gpu_dir + "/driver", "../../../../bus/platform/drivers/gk20a")
        s.modules.append("nvgpu 2899968 23 - Live 0x0000000000000000 (O)")
        s.modules.append("nvmap 204800 79 nvgpu, Live 0x0000000000000000 (O)")
    if nodes:
        for path, (major, minor) in NVGPU_NODES.items():
            s.device(path, major, minor, mode="0660", gid=44)  # root:video, as L4T's udev rules make them
        s.user["groups"] = [44]
    s.file(f"{lib}/libcuda.so.1.1", tiny_elf("libcuda.so.1", ["libnvrm_gpu.so", "libnvrm_mem.so", "libc.so.6"], machine=183))
    s.link(f"{lib}/libcuda.so.1", "libcuda.so.1.1")
    s.link(f"{lib}/libcuda.so", "libcuda.so.1.1")
    for nvrm in ("libnvrm_gpu.so", "libnvrm_mem.so"):
        s.file(f"{lib}/{nvrm}", tiny_elf(nvrm, ["libc.so.6"], machine=183))
    s.file("/usr/lib/aarch64-linux-gnu/libc.so.6", tiny_elf("libc.so.6", machine=183))
    s.directory("/lib/aarch64-linux-gnu")
    s.file("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    s.file("/etc/ld.so.conf.d/nvidia-tegra.conf", lib + "\n")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", f"{lib}/libcuda.so.1"), ("libcuda.so", f"{lib}/libcuda.so"),
                                         ("libnvrm_gpu.so", f"{lib}/libnvrm_gpu.so"),
                                         ("libnvrm_mem.so", f"{lib}/libnvrm_mem.so")], flags=0x0a03))
    s.env.setdefault("PATH", "/usr/local/cuda/bin:/usr/bin:/bin")
    return s


def scenarios():
    s = jetson_userspace(jetson("jetson-orin-healthy", "A Jetson AGX Orin on JetPack 6.1 (L4T R36.4.0): nvgpu drives "
                                "the integrated GPU, libcuda from L4T's directory. No PCI GPU and no nvidia-smi."))
    s.cuda_probe(devices=[{"device": 0, "name": "Orin", "compute_capability": "8.7", "memory_total_mib": 62841}],
                 mapped=f"{L4T_LIB}/libcuda.so.1.1", version=12060)
    yield s.expect("ok", None, [])

    # JetPack 6 ships the driver's userspace in L4T's directory, as drivers.csv lists it.
    s = jetson_userspace(jetson("jetson-orin-healthy-files-only", "The same Orin read from files alone (--no-probe, "
                                "or a snapshot without the driver's answers): no PCI GPU is no failure here."))
    yield s.expect("ok", None, [])

    # L4T's udev rules make nvgpu's nodes root:video 0660; a user outside
    # video cannot open /dev/nvmap, which every CUDA program opens first
    # ('NvRmMemInitNvmap failed with Permission denied').
    s = jetson_userspace(jetson("jetson-orin-user-not-in-video", "The Orin, checked (files only) by a user who is not "
                                "in video: nvmap's and nvgpu's nodes are root:video 0660."))
    s.user = {"uid": 1001, "gid": 1001, "groups": [1001]}
    yield s.expect("fail", "device-nodes", ["device-node-permission-denied"], headline="device-node-permission-denied")

    # libcuda on a Jetson needs L4T's libnvrm_*: found libcuda is no working driver without them (apptainer#3646).
    s = jetson_userspace(jetson("jetson-orin-libnvrm-missing", "The Orin with libnvrm_gpu.so gone from L4T's directory "
                                "(a partial upgrade): libcuda.so.1 is found, but cannot be loaded (files only)."))
    del s.files[f"{L4T_LIB}/libnvrm_gpu.so"]
    yield s.expect("fail", "driver-libs", ["driver-library-needs-missing"], headline="driver-library-needs-missing")

    s = jetson_userspace(jetson("jetson-orin-nvgpu-not-loaded", "An Orin booted into a kernel without nvgpu: the "
                                "GPU's platform device has no driver.", nvgpu_loaded=False, nodes=False))
    yield s.expect("fail", "kernel-module", ["integrated-gpu-driver-not-bound"], headline="integrated-gpu-driver-not-bound")

    # A container in CSV mode: the runtime bind-mounts each L4T file and creates the nodes devices.csv lists.
    s = jetson_userspace(jetson("jetson-container-csv-healthy", "An l4t-jetpack container started with --runtime "
                                "nvidia on the Orin: CSV mode mounted L4T's libraries and nvgpu's nodes."))
    s.file("/.dockerenv", "").env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "all"})
    s.file("/proc/self/mountinfo", "".join(
        f"{600 + i} 580 259:1 {path} {path} ro,nosuid,nodev,relatime master:1 - ext4 /dev/nvme0n1p1 rw\n"
        for i, path in enumerate([f"{L4T_LIB}/libcuda.so.1.1", f"{L4T_LIB}/libnvrm_gpu.so", f"{L4T_LIB}/libnvrm_mem.so",
                                  f"{L4T_LIB}/libnvidia-ptxjitcompiler.so.540.3.0", "/etc/nv_tegra_release"])))
    s.cuda_probe(devices=[{"device": 0, "name": "Orin", "compute_capability": "8.7", "memory_total_mib": 62841}],
                 mapped=f"{L4T_LIB}/libcuda.so.1.1", version=12060)
    yield s.expect("ok", None, [])

    # The same image run without the NVIDIA runtime (plain runc): nothing of L4T reaches it.
    s = jetson("jetson-container-without-runtime", "An l4t-jetpack container started without --runtime nvidia on the "
               "Orin: no /dev/nvmap, no L4T libraries (dusty-nv/jetson-containers#3).", nodes=False)
    for path in [p for p in list(s.files) if p.startswith(L4T_LIB) or p.startswith("/etc/ld.so")]:
        del s.files[path]
    s.links = {path: target for path, target in s.links.items() if not path.startswith(L4T_LIB)}
    s.file("/.dockerenv", "").env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "all"})
    s.file("/proc/self/mountinfo", "580 500 0:52 / / rw,relatime - overlay overlay rw\n")
    yield s.expect("fail", "container", ["container-jetson-not-injected", "container-gpu-not-injected", "libcuda-not-found"],
                   headline="container-jetson-not-injected")
    yield from more_scenarios()
    yield from thor_scenarios()


def jetson_userspace(s, lib=L4T_LIB, version="540.3.0"):
    """The rest of L4T's driver userspace as JetPack 6's drivers.csv lists it:
    the PTX JIT, NVVM and NVML beside libcuda."""
    for stem, soname in (("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"), ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
        s.file(f"{lib}/{stem}.{version}", tiny_elf(soname, ["libc.so.6"], machine=183))
        s.link(f"{lib}/{soname}", f"{stem}.{version}")
    s.file(f"{lib}/libnvidia-ml.so.1", tiny_elf("libnvidia-ml.so.1", ["libc.so.6"], machine=183))
    s.file("/etc/ld.so.cache", ld_cache([(name, f"{lib}/{name}") for name in
                                         ("libcuda.so.1", "libcuda.so", "libnvrm_gpu.so", "libnvrm_mem.so",
                                          "libnvidia-ptxjitcompiler.so.1", "libnvidia-nvvm.so.4", "libnvidia-ml.so.1")],
                                        flags=0x0a03))
    return s


def jetpack5_orin(name, description):
    """An Orin on JetPack 5.1.2 (L4T R35.4.1, CUDA 11.4): libcuda under .../tegra, nvgpu's nvhost nodes."""
    release = ("# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, "
               "DATE: Tue Aug  1 19:57:35 UTC 2023\n")
    return jetson_userspace(jetson(name, description, release=release, lib="/usr/lib/aarch64-linux-gnu/tegra"),
                            lib="/usr/lib/aarch64-linux-gnu/tegra", version="35.4.1")


def more_scenarios():
    # NVIDIA-ISAAC-ROS/isaac_ros_common#126: an Isaac ROS 3.0 image (built for JetPack 6, cuda>=12.2) on JetPack 5.1.2.
    s = jetpack5_orin("jetson-container-require-unsatisfied", "An Isaac ROS 3.0 container (NVIDIA_REQUIRE_CUDA cuda>=12.2) "
                      "on JetPack 5.1.2, whose CUDA is 11.4: the runtime refuses it ('unsatisfied condition: cuda>=12.2').")
    s.file("/.dockerenv", "").env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "all",
                                          "NVIDIA_REQUIRE_CUDA": "cuda>=12.2", "CUDA_VERSION": "12.2.140"})
    s.file("/proc/self/mountinfo", "".join(
        f"{600 + i} 580 259:1 {path} {path} ro,nosuid,nodev,relatime master:1 - ext4 /dev/nvme0n1p1 rw\n"
        for i, path in enumerate(["/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1", "/usr/lib/aarch64-linux-gnu/tegra/libnvrm_gpu.so"])))
    yield s.expect("fail", "container", ["require-unsatisfied"], headline="require-unsatisfied")


# A Jetson AGX Thor developer kit on JetPack 7.0 (L4T R38.2.0, kernel 6.8.12-tegra, Ubuntu 24.04), as
# its owners' reports show it (rbonghi/jetson_stats#711: compatible, model, nv_tegra_release): the open
# nvidia module drives the integrated GPU, nvidia-smi and NVML work, CUDA 13.0, the usual /dev/nvidia*.
THOR_RELEASE = ("# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic, EABI: aarch64, "
                "DATE: Fri Aug 22 00:55:42 UTC 2025\n")


def thor(name, description, version="580.00", loaded=True):
    s = Snapshot(name, description)
    s.uname.update({"release": "6.8.12-tegra", "version": "#1 SMP PREEMPT Fri Aug 22 00:32:53 PDT 2025", "machine": "aarch64"})
    s.pci("0001:00:00.0", "10de", "22d8", "060400", driver="pcieport", subsystem=("10de", "0000"))
    s.file("/proc/device-tree/compatible", b"nvidia,p4071-0000+p3834-0008\0nvidia,p3834-0008\0nvidia,tegra264\0")
    s.file("/proc/device-tree/model", b"NVIDIA Jetson AGX Thor Developer Kit\0")
    s.file("/sys/devices/soc0/family", "Tegra\n").file("/etc/nv_tegra_release", THOR_RELEASE)
    # The GPU's platform device (its exact unit address is the device tree's; the name ends in .gpu).
    gpu_dir = "/sys/devices/platform/bus@0/8808000000.gpu"
    s.link("/sys/bus/platform/devices/8808000000.gpu", "../../../devices/platform/bus@0/8808000000.gpu")
    s.file(gpu_dir + "/of_node/compatible", b"nvidia,gb10b\0")
    if loaded:
        s.link(gpu_dir + "/driver", "../../../../bus/platform/drivers/nvidia")
        s.loaded("nvidia", "nvidia_uvm", "nvidia_modeset", "nvidia_drm")
        s.file("/proc/driver/nvidia/version", f"NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  {version}  Release Build  "
               "(buildbrain@mobile-u64-6354-d7000)  Thu Aug 21 23:46:54 PDT 2025\nGCC version:  gcc version 13.2.0 (Ubuntu 13.2.0-23ubuntu4)\n")
        s.file("/sys/module/nvidia/version", version + "\n")
        s.file("/proc/devices", "Character devices:\n195 nvidia\n510 nvidia-uvm\n511 nvidia-caps\n")
        s.driver_nodes([0], version=version)
    for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                         ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"), ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
        s.file(f"{L4T_LIB}/{stem}.{version}", tiny_elf(soname, ["libc.so.6"], machine=183))
        s.link(f"{L4T_LIB}/{soname}", f"{stem}.{version}")
    s.file("/usr/lib/aarch64-linux-gnu/libc.so.6", tiny_elf("libc.so.6", machine=183))
    s.directory("/lib/aarch64-linux-gnu")
    s.file("/etc/ld.so.conf.d/nvidia-tegra.conf", L4T_LIB + "\n")
    s.file("/etc/ld.so.cache", ld_cache([(soname, f"{L4T_LIB}/{soname}") for soname in
                                         ("libcuda.so.1", "libnvidia-ml.so.1", "libnvidia-ptxjitcompiler.so.1", "libnvidia-nvvm.so.4")],
                                        flags=0x0a03))
    s.file("/usr/bin/nvidia-smi", "")
    s.env["PATH"] = "/usr/local/cuda/bin:/usr/bin:/bin"
    return s


def thor_scenarios():
    s = thor("jetson-agx-thor-healthy", "A Jetson AGX Thor on JetPack 7.0: the open nvidia module drives the integrated GPU "
             "(no PCI GPU), cuInit finds it.")
    s.cuda_probe(devices=[{"device": 0, "name": "NVIDIA Thor", "compute_capability": "11.0", "memory_total_mib": 125772}],
                 mapped=f"{L4T_LIB}/libcuda.so.580.00", version=13000)
    yield s.expect("ok", None, [], absent=["integrated-gpu-driver-not-bound", "no-nvidia-gpu", "nvidia-module-not-loaded"])

    s = thor("jetson-agx-thor-nvidia-not-loaded", "A Thor whose nvidia module did not load (a kernel rebuilt without L4T's "
             "out-of-tree modules): the fix names nvidia, not Orin's nvgpu.", loaded=False)
    yield s.expect("fail", "kernel-module", ["integrated-gpu-driver-not-bound"], headline="integrated-gpu-driver-not-bound")
