"""The CUDA runtime against the driver (minor-version compatibility, the
majors' architecture floors), NVIDIA_REQUIRE_*, CUDA_VISIBLE_DEVICES, redaction."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    # torch wheels before CUDA 12 bundle their own runtime under a hashed
    # name (torch/lib/libcudart-<hash>.so.11.0); torch/version.py says which
    # CUDA. On driver 470 (CUDA 11.4) an 11.8 runtime relies on minor-version
    # compatibility.
    s = Snapshot("host-torch-bundled-runtime", "A cu118 torch wheel with its bundled libcudart-<hash>.so.11.0 on an A100 with driver 470 (CUDA 11.4).").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "20b0", "030200", driver="nvidia")
    s.nvidia_driver("470.256.02").claimed("0000:1b:00.0", "NVIDIA A100-SXM4-40GB", 0)
    s.driver_nodes([0], version="470.256.02")
    s.file("/usr/bin/nvidia-modprobe", "")
    site = "/opt/venv/lib/python3.10/site-packages"
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    s.directory("/opt/venv/lib/python3.10")
    s.file(f"{site}/torch/lib/libcudart-d0da41ae.so.11.0", tiny_elf("libcudart-d0da41ae.so.11.0"))
    s.file(f"{site}/torch/version.py", "__version__ = '2.0.1+cu118'\ndebug = False\ncuda = '11.8'\ngit_version = 'e9ebda29d87ce0916ab08c06ab26fd3766a870e5'\nhip = None\n")
    yield s.expect("warn", None, ["runtime-relies-on-minor-version-compatibility"], info=["cuda-runtime-off-loader-path"], headline="runtime-relies-on-minor-version-compatibility")

    # conda: an image's /opt/conda, reached through PATH only (pytorch/pytorch:1.13.1-cuda11.6-cudnn8-runtime
    # style), with cudatoolkit's libcudart in lib/ and torch's RPATH leading there.
    s = h100_host("container-conda-cudatoolkit-healthy", "A conda image: PATH=/opt/conda/bin, no CONDA_PREFIX; cudatoolkit 11.6.2 "
                  "puts libcudart.so.11.6.55 in /opt/conda/lib, where conda's torch 1.13.1 finds it; driver 550 runs it.")
    s.conda_env(packages=[("cudatoolkit", "11.6.2", "hfc3e2af_12", {"lib/libcudart.so.11.6.55": "libcudart.so.11.0"})])
    s.link("/opt/conda/lib/libcudart.so.11.0", "libcudart.so.11.6.55")
    s.file("/opt/conda/lib/python3.10/site-packages/torch/version.py",
           "__version__ = '1.13.1'\ndebug = False\ncuda = '11.6'\ngit_version = '49444c3e546bf240bed24a101e747422d1f8a0ee'\nhip = None\n")
    yield s.expect("ok", None, [], info=["cuda-runtime-off-loader-path"],
                   absent=["driver-too-old-for-runtime", "runtime-relies-on-minor-version-compatibility"])

    # conda-forge's split CUDA 12 (cuda-cudart_linux-64: targets/x86_64-linux/lib, linked from lib/) in an
    # activated miniforge environment whose name says nothing of conda, on a 470 driver (CUDA 11.4).
    s = h100_host("host-conda-forge-cuda12-on-470", "An activated miniforge environment with conda-forge's cuda-cudart 12.4.127 "
                  "on driver 470 (CUDA 11.4): no compatibility across majors.", version="470.256.02")
    prefix = "/root/miniforge3/envs/train"
    s.conda_env(prefix=prefix, python="3.11", activated=True, packages=[
        ("cuda-cudart_linux-64", "12.4.127", "h85509e4_2", {"targets/x86_64-linux/lib/libcudart.so.12.4.127": "libcudart.so.12"})])
    s.link(f"{prefix}/targets/x86_64-linux/lib/libcudart.so.12", "libcudart.so.12.4.127")
    s.link(f"{prefix}/lib/libcudart.so.12", "../targets/x86_64-linux/lib/libcudart.so.12")
    yield s.expect("fail", "cuda-runtime", ["driver-too-old-for-runtime"], info=["cuda-runtime-off-loader-path"],
                   headline="driver-too-old-for-runtime")

    s = h100_host("host-runtime-newer-major", "A CUDA 13 wheel on driver 575 (CUDA 12.9): no compatibility across majors (FC-02).",
                  version="575.57.08")
    s.cuda_wheel("/opt/venv/lib/python3.11/site-packages", major="13", version="13.0.96", cudnn=None)
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("fail", "cuda-runtime", ["driver-too-old-for-runtime"], info=["cuda-runtime-off-loader-path"], headline="driver-too-old-for-runtime")

    s = h100_host("host-runtime-minor-compatible", "A CUDA 12.4 wheel on driver 535 (CUDA 12.2): runs through minor-version compatibility.",
                  version="535.183.01")
    s.cuda_wheel("/opt/venv/lib/python3.11/site-packages")
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("warn", None, ["runtime-relies-on-minor-version-compatibility"], headline="runtime-relies-on-minor-version-compatibility")

    s = Snapshot("host-runtime-below-mvc-minimum", "CUDA 11.8 on an early 450 driver (11.0), below 450.80.02.").plain_vm_pci()
    s.pci("0000:07:00.0", "10de", "20b0", "030200", driver="nvidia")
    s.nvidia_driver("450.51.06").claimed("0000:07:00.0", "A100-SXM4-40GB", 0)
    s.driver_nodes([0], version="450.51.06")
    s.file("/usr/local/cuda-11.8/lib64/libcudart.so.11.8.89", tiny_elf("libcudart.so.11.0"))
    s.link("/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "libcudart.so.11.8.89")
    yield s.expect("fail", "cuda-runtime", ["runtime-minor-newer-without-compatibility"], info=["cuda-runtime-off-loader-path"], headline="runtime-minor-newer-without-compatibility")

    s = Snapshot("host-cuda13-on-pascal", "A CUDA 13 wheel on a GTX 1080: driver 580 still drives Pascal, CUDA 13 cannot build for it.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "1b80", "030000", driver="nvidia", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("580.95.05").claimed("0000:01:00.0", "NVIDIA GeForce GTX 1080", 0)
    s.driver_nodes([0], version="580.95.05")
    s.cuda_wheel("/opt/venv/lib/python3.11/site-packages", major="13", version="13.0.96", cudnn=None)
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("fail", "cuda-runtime", ["runtime-cannot-target-gpu"], info=["cuda-runtime-off-loader-path"], headline="runtime-cannot-target-gpu")

    s = Snapshot("host-pascal-torch-cu128", "torch 2.7.0+cu128 on a GTX 1080 (sm_61): cu128 builds start at sm_75; "
                 "the fix names the cu126 index, the newest that still carries Pascal (FC-35).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "1b80", "030000", driver="nvidia", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("580.95.05").claimed("0000:01:00.0", "NVIDIA GeForce GTX 1080", 0)
    s.driver_nodes([0], version="580.95.05")
    yield s.torch_venv(version="2.7.0+cu128", cuda="12.8", fatbin=[(2, arch, 1, 7) for arch in (75, 80, 86, 90, 100, 120)]).expect(
        "fail", "application", ["application-no-kernel-image"], headline="application-no-kernel-image")

    s = Snapshot("container-require-unsatisfied", "An image requiring CUDA 12.4 on a 470 host (CUDA 11.4): refused or failing at start (FC-04).").plain_vm_pci()
    s.pci("0000:07:00.0", "10de", "20b0", "030200", driver="nvidia")
    s.nvidia_driver("470.256.02").claimed("0000:07:00.0", "NVIDIA A100-SXM4-40GB", 0)
    s.driver_nodes([0], version="470.256.02")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all",
                                         "NVIDIA_REQUIRE_CUDA": "cuda>=12.4 brand=tesla,driver>=535,driver<536"})
    yield s.expect("fail", "container", ["require-unsatisfied"], headline="require-unsatisfied")

    s = Snapshot("container-require-minor-compatible", "A CUDA 12.4 image on a GeForce with driver 535 (12.2): the strict check refuses what would run (FC-05).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="nvidia", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.nvidia_driver("535.183.01").claimed("0000:01:00.0", "NVIDIA GeForce RTX 3090", 0)
    s.driver_nodes([0], version="535.183.01")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_REQUIRE_CUDA":
        "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=tesla,driver>=535,driver<536 brand=quadro,driver>=535,driver<536"})
    yield s.expect("warn", None, ["require-unsatisfied-but-minor-compatible"], headline="require-unsatisfied-but-minor-compatible")

    s = h100_host("host-cuda-visible-devices-out-of-range", "CUDA_VISIBLE_DEVICES=2 on a one-GPU host (FC-37).")
    s.env["CUDA_VISIBLE_DEVICES"] = "2"
    s.cuda_probe(init=100, init_name="CUDA_ERROR_NO_DEVICE")
    yield s.expect("fail", "device-nodes", ["cuda-visible-devices-selects-nothing", "cuda-init-no-device"], headline="cuda-visible-devices-selects-nothing")

    s = h100_host("host-cuda-visible-devices-partly-ignored", "CUDA_VISIBLE_DEVICES=0,5 on a one-GPU host: CUDA stops at 5.")
    s.env["CUDA_VISIBLE_DEVICES"] = "0,5"
    yield s.expect("warn", None, ["cuda-visible-devices-partly-ignored"], headline="cuda-visible-devices-partly-ignored")

    s = h100_host("host-cuda-visible-devices-unknown-uuid", "CUDA_VISIBLE_DEVICES names a GPU UUID this host does not have.")
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-5a1e0c55-0000-0000-0000-000000000000"
    yield s.expect("fail", "device-nodes", ["cuda-visible-devices-selects-nothing"], headline="cuda-visible-devices-selects-nothing")

    s = h100_host("host-cuda-visible-devices-by-uuid", "CUDA_VISIBLE_DEVICES names the host's GPU by a UUID prefix: fine.")
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-00000000-0000"
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [])

    # Everything `gpudoctor snapshot` redacts, in the places a real machine
    # has it; the replay tests check that a redacted snapshot keeps none of it
    # and reaches this same diagnosis.
    s = h100_host("host-identifying-values", "A healthy H100 host full of identifying values: host and user names, "
                  "home paths, GPU UUIDs (one selected by prefix), GPU, USB and PCI VPD serials, a part number, MAC, IPv4 and IPv6 addresses.")
    uuid = "GPU-8f3a1c2d-4b5e-6f70-8192-a3b4c5d6e7f8"
    s.claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0, uuid=uuid)
    s.file("/etc/hostname", "gpu-node-17\n")
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-8f3a1c2d"
    s.env["LD_LIBRARY_PATH"] = "/home/alice/.local/lib"
    s.directory("/home/alice/.local/lib")
    s.torch_venv(fatbin=[(2, arch, 1, 7) for arch in (80, 86, 90)], prefix="/home/alice/venv")
    s.cuda_probe(devices=[dict(cuda_device(), uuid=uuid)])
    s.nvml_probe(devices=[nvml_device(uuid=uuid, serial="1654922034781", board_part_number="900-21010-0000-000")])
    # A ConnectX-7 beside it: its VPD carries the serial (SN, and again in VU) and a UUID in hex (V3).
    s.pci("0000:0c:00.0", "15b3", "1021", "020000", driver="mlx5_core", subsystem=("15b3", "0040"))
    s.file("/sys/bus/pci/devices/0000:0c:00.0/vpd", pci_vpd("NVIDIA ConnectX-7 HHHL adapter Card, 400GbE / NDR IB", [
        ("PN", "MCX75310AAS-NEAT"), ("EC", "A6"), ("SN", "MT2425X0CNRY"), ("V3", "3b7e4f0c9a2d11eeb962f1a2c3d4e5f6"),
        ("VA", "MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0:MODL=CX75310A"), ("V0", "PCIeGen5 x16"),
        ("VU", "MT2425X0CNRYMLNXS0D0F0")]))
    s.kernel_log("[    2.104] virtio_net virtio1 eth0: renamed, address 52:54:00:12:34:56\n"
                 "[    9.877] nfs: server 192.168.10.23 not responding, still trying\n"
                 "[    9.901] nfs: server fd00:10:20::23 not responding, still trying\n"
                 "[   10.310] usb 1-2: SerialNumber: 4C530001230417116591\n"
                 "[   12.001] gpu-node-17 NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\n")
    yield s.expect("ok", None, [])

    s = h100_host("host-cuda-visible-devices-two-mig", "Two MIG devices in CUDA_VISIBLE_DEVICES: CUDA enumerates one (FC-38).")
    s.env["CUDA_VISIBLE_DEVICES"] = "MIG-4a8f-01,MIG-4a8f-02"
    yield s.expect("fail", "device-nodes", ["cuda-visible-devices-several-mig", "cuda-visible-devices-partly-ignored"], headline="cuda-visible-devices-several-mig")
