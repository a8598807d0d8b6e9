"""The driver's userspace: stubs, nvidia-smi's answers, baked-in and off-path
libraries, upgrades without reboot, capabilities, cuda-compat."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    s = h100_host("host-old-branch-libcuda-leftover", "Driver 550 from packages; a libcuda.so.535.183.01 left in the same "
                  "directory by an earlier runfile install. ldconfig points libcuda.so.1 at 550's: healthy, and said as info.")
    s.file("/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01", tiny_elf("libcuda.so.1"))
    yield s.expect("ok", None, [], info=["driver-libs-leftover-libcuda"], absent=["libcuda-off-loader-path"])

    s = h100_host("host-libcuda-stub", "LD_LIBRARY_PATH puts the toolkit's stubs (with a libcuda.so.1 link) ahead of the driver (FC-29).")
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    s.file(stubs + "/libcuda.so", tiny_elf("libcuda.so.1"))
    s.link(stubs + "/libcuda.so.1", "libcuda.so")
    s.env["LD_LIBRARY_PATH"] = stubs
    s.cuda_probe(init=34, init_name="CUDA_ERROR_STUB_LIBRARY", mapped=stubs + "/libcuda.so")
    yield s.expect("fail", "driver-libs", ["libcuda-is-stub", "libcuda-unversioned-is-stub", "cuda-init-stub-library"], headline="libcuda-is-stub")

    # CUDA 12's stubs directory holds only libcuda.so: with it on
    # LD_LIBRARY_PATH, libcuda.so.1 programs work and dlopen("libcuda.so") ones get the stub.
    s = h100_host("host-libcuda-unversioned-stub", "LD_LIBRARY_PATH holds the toolkit's stubs/ (only libcuda.so): numba-style dlopen(\"libcuda.so\") gets the stub.")
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    s.file(stubs + "/libcuda.so", tiny_elf("libcuda.so.1"))
    s.env["LD_LIBRARY_PATH"] = stubs
    yield s.expect("warn", None, ["libcuda-unversioned-is-stub"], absent=["libcuda-is-stub"], headline="libcuda-unversioned-is-stub")

    s = h100_host("host-xid-79-in-log", "The kernel log shows Xid 79 and the GPU's node no longer opens.")
    s.devices["/dev/nvidia0"]["open"] = "ENXIO"
    s.kernel_log("[ 8301.123456] NVRM: GPU at PCI:0000:1b:00: GPU-00000000-0000-0000-0000-000000000000\n"
                 "[ 8301.123460] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
                 "[ 8301.123470] NVRM: GPU 0000:1b:00.0: GPU has fallen off the bus.\n")
    yield s.expect("fail", "hardware", ["kernel-log-gpu-fell-off-bus", "device-open-failed"], headline="kernel-log-gpu-fell-off-bus")

    # A GPU lost at run time, seen by nvidia-smi alone (no kernel log could be
    # read): the other GPU answers, the lost one's line says why, exit 15.
    s = h100_host("host-nvidia-smi-gpu-lost", "One of two H100s fell off the bus at run time; only nvidia-smi says so (no readable kernel log).")
    s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
    s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
    s.smi(exit=15, stdout="0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n"
                           "Unable to determine the device handle for GPU0000:2A:00.0: Unknown Error\n")
    yield s.expect("fail", "hardware", ["nvidia-smi-gpu-lost", "nvidia-smi-failed"], headline="nvidia-smi-gpu-lost")

    s = h100_host("host-nvidia-smi-output-cut", "A site's nvidia-smi wrapper prints its answer, then a deprecation notice "
                  "in a loop until gpudoctor's 1 MiB cap: the row read is judged, and the cap is said.")
    row = ("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, "
           "Disabled, Enabled, Default\n")
    notice = "nvidia-smi wrapper: this module is deprecated, load cuda/12 instead\n"
    s.smi(stdout=(row + notice * ((1 << 20) // len(notice) + 1))[:1 << 20], truncated=True)
    yield s.expect("ok", None, [], info=["nvidia-smi-output-cut"])

    s = h100_host("host-nvidia-smi-gpu-is-lost", "nvidia-smi reports the only H100 lost ('GPU is lost'), and the kernel log shows Xid 79 for it.")
    s.smi(exit=15, stdout="Unable to determine the device handle for GPU 0000:1B:00.0: GPU is lost.  Reboot the system to recover this GPU\n")
    s.kernel_log("[ 8301.123460] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n")
    yield s.expect("fail", "hardware", ["kernel-log-gpu-fell-off-bus", "nvidia-smi-gpu-lost", "nvidia-smi-failed"],
                   headline="kernel-log-gpu-fell-off-bus")

    # A driver install that ran out of disk leaves libcuda.so.<version> empty:
    # the loader stops at it ("file too short") and never looks further, so
    # the cause is the empty file, not a missing library.
    s = h100_host("host-libcuda-empty-file", "libcuda.so.550.54.15 is 0 bytes (an install that ran out of disk): 'libcuda.so.1: file too short'.")
    s.file("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "")
    yield s.expect("fail", "driver-libs", ["driver-library-not-elf", "libcuda-not-found"], headline="driver-library-not-elf")

    # nvidia-smi's banner names its own release beside the driver's.
    s = h100_host("host-nvidia-smi-banner-healthy", "The driver's own nvidia-smi: its banner's release and driver version agree.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    s.smi_banner("550.54.15", "550.54.15", "12.4")
    yield s.expect("ok", None, [])

    s = h100_host("host-nvidia-smi-foreign", "An nvidia-smi 535 from an old install is first on PATH beside driver 550.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    s.smi_banner("535.183.01", "550.54.15", "12.4")
    yield s.expect("warn", None, ["nvidia-smi-not-the-drivers"], headline="nvidia-smi-not-the-drivers")

    s = h100_host("host-nvidia-smi-version-foreign", "The same foreign nvidia-smi, read from `nvidia-smi --version` "
                  "(as gpudoctor asks it now): no banner is asked.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    s.smi_version("535.183.01", "550.54.15", "12.4")
    yield s.expect("warn", None, ["nvidia-smi-not-the-drivers"], headline="nvidia-smi-not-the-drivers")

    s = h100_host("host-nvidia-smi-r610-banner", "Driver 610's banner says KMD Version and CUDA UMD Version: read like the old labels.", version="610.43.02")
    s.smi("0, 610.43.02, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    s.smi_banner("610.43.02", "610.43.02", "13.3", r610=True)
    yield s.expect("ok", None, [])

    s = h100_host("host-nvidia-smi-hangs", "nvidia-smi does not answer within 5 s: the driver is wedged.")
    s.smi(timed_out=True)
    s.cuda_probe(timed_out=True)
    yield s.expect("fail", "driver-libs", ["nvidia-smi-timed-out", "cuda-probe-timed-out"], headline="nvidia-smi-timed-out")

    s = h100_host("host-compute-mode-prohibited", "The H100 was left in compute mode Prohibited: no CUDA context can be created.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Prohibited\n")
    s.nvml_probe(devices=[nvml_device(compute_mode="Prohibited")])
    yield s.expect("fail", "driver-libs", ["gpu-compute-mode-prohibited", "gpu-compute-mode-prohibited-nvml"], headline="gpu-compute-mode-prohibited")

    s = Snapshot("host-nvidia-smi-old-driver-fields", "Driver 470's nvidia-smi lacks compute_cap: asked again without it, it answers; an A100, healthy.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "20b0", "030200", driver="nvidia")
    s.nvidia_driver("470.256.02").claimed("0000:1b:00.0", "NVIDIA A100-SXM4-40GB", 0)
    s.driver_nodes([0], version="470.256.02")
    s.file("/usr/bin/nvidia-modprobe", "")
    s.smi(exit=2, stdout='Field "compute_cap" is not a valid field to query.\n\n')
    s.smi("0, 470.256.02, NVIDIA A100-SXM4-40GB, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 40536, 0, [N/A], Enabled, Default\n", with_cc=False)
    yield s.expect("ok", None, [])

    s = h100_host("host-nvidia-smi-crashes", "nvidia-smi dies with SIGSEGV: the driver's user-space libraries do not belong together.")
    s.smi(signal=11)
    yield s.expect("fail", "driver-libs", ["nvidia-smi-crashed"], headline="nvidia-smi-crashed")

    s = h100_host("host-nvidia-smi-disagrees", "nvidia-smi reports 550.54.14 while /proc/driver/nvidia/version says 550.54.15.")
    s.smi("0, 550.54.14, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    s.nvml_probe(driver="550.54.14", devices=[nvml_device()])
    yield s.expect("warn", None, ["nvidia-smi-driver-disagrees", "nvml-driver-disagrees"], headline="nvidia-smi-driver-disagrees")

    s = h100_host("host-nvidia-smi-gpus-disagree", "Two GPU lines of nvidia-smi report different driver versions.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n1, 550.54.14, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    yield s.expect("warn", None, ["nvidia-smi-driver-versions-differ"], headline="nvidia-smi-driver-versions-differ")

    s = h100_host("host-mig-enabled", "An H100 in MIG mode with two GPU instances; nvidia-smi and NVML both say so.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 11, Enabled, Enabled, Default\n")
    s.device("/dev/nvidia-caps/nvidia-cap1", 511, 1, mode="0400").device("/dev/nvidia-caps/nvidia-cap2", 511, 2, mode="0444")
    mig_capabilities(s, {"gi1": ["ci0"], "gi2": ["ci0"]})
    s.nvml_probe(devices=[nvml_device(mig_mode="Enabled", mig_devices=2, memory_used_mib=11)])
    yield s.expect("ok", None, [])

    s = h100_host("host-compute-mode-exclusive", "The H100 runs in Exclusive_Process compute mode, as a scheduler sets it: fine, noted.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Exclusive_Process\n")
    yield s.expect("ok", None, [], info=["gpu-compute-mode-exclusive"])

    s = h100_host("container-libcuda-off-loader-path", "Injected into /usr/local/nvidia/lib64, but LD_LIBRARY_PATH was overridden and no ldconfig ran.")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "LD_LIBRARY_PATH": "/opt/app/lib"})
    for path in [p for p in list(s.files) if p.startswith("/usr/lib/x86_64-linux-gnu/libnvidia") or p.startswith("/usr/lib/x86_64-linux-gnu/libcuda")]:
        s.files.pop(path)
    for path in [p for p in list(s.links) if p.startswith("/usr/lib/x86_64-linux-gnu/lib")]:
        s.links.pop(path)
    s.driver_userspace("550.54.15", directory="/usr/local/nvidia/lib64")
    yield s.expect("fail", "driver-libs", ["libcuda-off-loader-path"], absent=["libcuda-not-found"], headline="libcuda-off-loader-path")

    s = h100_host("container-baked-driver-libs", "The image ships libcuda 565.57.01 of its own; the host runs 535.161.08 (FC-12).", version="535.161.08")
    s.in_docker(legacy=True).env["NVIDIA_VISIBLE_DEVICES"] = "all"
    s.driver_userspace("565.57.01")
    for soname, stem in (("libcuda.so.1", "libcuda.so"), ("libnvidia-ml.so.1", "libnvidia-ml.so"),
                         ("libnvidia-ptxjitcompiler.so.1", "libnvidia-ptxjitcompiler.so"), ("libnvidia-nvvm.so.4", "libnvidia-nvvm.so")):
        s.links[f"/usr/lib/x86_64-linux-gnu/{soname}"] = f"{stem}.565.57.01"
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch"], headline="driver-library-version-mismatch")

    def upgraded_without_reboot(name, description):
        """Driver packages moved to 550.54.15 while the 550.54.14 module stays loaded."""
        s = h100_host(name, description, version="550.54.14")
        for stem in ("libcuda.so", "libnvidia-ml.so", "libnvidia-ptxjitcompiler.so", "libnvidia-nvvm.so"):
            s.files.pop(f"/usr/lib/x86_64-linux-gnu/{stem}.550.54.14")
        s.driver_userspace("550.54.15")
        return s

    s = upgraded_without_reboot("host-upgraded-without-reboot", "Driver packages upgraded to 550.54.15 while 550.54.14 is still loaded (FC-11).")
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch"], headline="driver-library-version-mismatch")

    s = upgraded_without_reboot("host-upgraded-api-mismatch-in-log", "The same upgrade without reboot, with the NVRM API mismatch lines in the kernel log.")
    s.kernel_log("[ 7022.000001] NVRM: API mismatch: the client has the version 550.54.15, but\n[ 7022.000002] NVRM: this kernel module has the version 550.54.14.  Please\n")
    s.smi(exit=18, stdout="Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.54.15\n")
    s.cuda_probe(init=803, init_name="CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")
    s.nvml_probe(init=18, init_name="Driver/library version mismatch")
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch", "kernel-log-api-mismatch", "nvidia-smi-version-mismatch",
                                           "cuda-init-driver-mismatch", "nvml-version-mismatch"], headline="driver-library-version-mismatch")

    s = Snapshot("wsl2-linux-driver-installed", "A Linux driver package installed inside WSL2 shadows /usr/lib/wsl/lib (FC-41).")
    s.uname["release"] = "5.15.153.1-microsoft-standard-WSL2"
    s.device("/dev/dxg", 10, 125)
    wsl_libraries(s)
    s.driver_userspace("535.183.01")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
                                         ("libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1")]))
    yield s.expect("fail", "driver-libs", ["wsl-linux-driver-shadows-wsl"], headline="wsl-linux-driver-shadows-wsl")

    s = h100_host("container-capabilities-utility-only", "NVIDIA_DRIVER_CAPABILITIES=utility: nvidia-smi works, libcuda was never injected (FC-09).")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "utility"})
    for path in [p for p in list(s.files) if "libcuda" in p or "ptxjit" in p or "nvvm" in p]:
        s.files.pop(path)
    for path in [p for p in list(s.links) if "libcuda" in p or "ptxjit" in p or "nvvm" in p]:
        s.links.pop(path)
    yield s.expect("fail", "container", ["container-capability-compute-missing"], absent=["libcuda-not-found"], headline="container-capability-compute-missing")

    s = h100_host("container-capabilities-compute-only", "NVIDIA_DRIVER_CAPABILITIES=compute: CUDA works, NVML and nvidia-smi missing (FC-10).")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute"})
    for path in [p for p in list(s.files) if "libnvidia-ml" in p or p == "/usr/bin/nvidia-smi"]:
        s.files.pop(path)
    s.links.pop("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1")
    yield s.expect("warn", None, ["container-capability-utility-missing"], info=["nvidia-smi-not-on-path"], headline="container-capability-utility-missing")

    s = h100_host("host-ptxjit-missing", "A partial driver install without libnvidia-ptxjitcompiler, and a runtime without version metadata.")
    s.files.pop("/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.550.54.15")
    s.links.pop("/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1")
    s.file("/usr/local/cuda-12.4/lib64/libcudart.so.12", tiny_elf("libcudart.so.12"))
    yield s.expect("warn", None, ["ptxjit-compiler-missing"], info=["cuda-runtime-version-unknown", "cuda-runtime-off-loader-path"], headline="ptxjit-compiler-missing")

    s = h100_host("host-pip-wheel-cu12", "A virtualenv with torch-style cu12 wheels: libcudart.so.12 12.4.127 and cuDNN 9.1.0.70.")
    site = "/opt/venv/lib/python3.11/site-packages"
    s.cuda_wheel(site)
    s.directory("/opt/venv/lib")
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("ok", None, [], info=["cuda-runtime-off-loader-path"])

    s = h100_host("host-nvjitlink-shadowed", "CUDA 12.4 registered with ldconfig, but LD_LIBRARY_PATH brings an older libnvJitLink (FC-30).")
    toolkit = "/usr/local/cuda-12.4/targets/x86_64-linux/lib"
    s.file(toolkit + "/libcudart.so.12.4.127", tiny_elf("libcudart.so.12"))
    s.link(toolkit + "/libcudart.so.12", "libcudart.so.12.4.127")
    s.file(toolkit + "/libnvJitLink.so.12.4.127", tiny_elf("libnvJitLink.so.12"))
    s.link(toolkit + "/libnvJitLink.so.12", "libnvJitLink.so.12.4.127")
    s.file("/opt/cuda-12.1/lib64/libnvJitLink.so.12.1.105", tiny_elf("libnvJitLink.so.12"))
    s.link("/opt/cuda-12.1/lib64/libnvJitLink.so.12", "libnvJitLink.so.12.1.105")
    s.env["LD_LIBRARY_PATH"] = "/opt/cuda-12.1/lib64"
    s.file("/etc/ld.so.cache", ld_cache([("libcudart.so.12", toolkit + "/libcudart.so.12"),
                                         ("libnvJitLink.so.12", toolkit + "/libnvJitLink.so.12"),
                                         ("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1")]))
    yield s.expect("warn", None, ["cuda-library-shadowed"], headline="cuda-library-shadowed")

    yield compat_container("container-cuda-compat-active",
                           "A CUDA 12.6 image on a 535 host: its cuda-compat libcuda 560.35.03 is registered first, as supported.",
                           "535.183.01").cuda_probe(devices=[cuda_device()], version=12060,
                                                    mapped="/usr/local/cuda-12.6/compat/libcuda.so.560.35.03").expect(
        "ok", None, [], info=["compat-in-use"], absent=["driver-library-version-mismatch"])

    yield compat_container("container-compat-branch-unsupported",
                           "cuda-compat 560.35.03 (CUDA 12.6) on a 550 host: its note accepts 550, NVIDIA's table supports only 535.",
                           "550.54.15").expect("warn", None, ["compat-host-branch-unsupported"], info=["compat-in-use"], headline="compat-host-branch-unsupported")

    yield compat_container("container-compat-on-geforce", "The same CUDA 12.6 image with cuda-compat on an RTX 4090 (FC-26).",
                           "535.183.01", gpu=("2684", "GeForce RTX 4090", "030000")).cuda_probe(
        init=804, init_name="CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", mapped="/usr/local/cuda-12.6/compat/libcuda.so.560.35.03").expect(
        "fail", "driver-libs", ["compat-on-unsupported-gpu", "cuda-init-compat-refused"], headline="compat-on-unsupported-gpu")

    # cuda-compat's libcuda bind-mounted over the standard directory (a
    # `-v .../compat/libcuda.so.560.35.03:/usr/lib/x86_64-linux-gnu/libcuda.so.1`
    # workaround): only the mount source tells it from a driver upgrade.
    s = compat_container("container-compat-mounted-over-driver", "cuda-compat's libcuda mounted over /usr/lib/x86_64-linux-gnu/libcuda.so.1 on an RTX 4090: error 804, not a reboot.",
                         "535.183.01", gpu=("2684", "GeForce RTX 4090", "030000"))
    s.files.pop("/etc/ld.so.conf.d/00-compat-1234.conf")
    s.file("/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03", tiny_elf("libcuda.so.1", ["libc.so.6"]))
    s.link("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.560.35.03")
    s.files.pop("/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
                                         ("libcudart.so.12", "/usr/local/cuda-12.6/lib64/libcudart.so.12")]))
    s.file("/proc/self/mountinfo", s.files["/proc/self/mountinfo"] +
           "1210 1071 0:62 /usr/local/cuda-12.6/compat/libcuda.so.560.35.03 /usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03 ro,relatime - overlay overlay rw\n")
    yield s.expect("fail", "driver-libs", ["compat-on-unsupported-gpu"], absent=["driver-library-version-mismatch"], headline="compat-on-unsupported-gpu")

    yield compat_container("container-compat-older-than-host", "A CUDA 12.4 image's cuda-compat 550.54.15 registered on a 580 host (FC-28).",
                           "580.95.05", compat="550.54.15", compat_cuda="12.4", runtime="12.4.127").expect(
        "fail", "driver-libs", ["compat-older-than-host-driver"], headline="compat-older-than-host-driver")

    yield compat_container("container-compat-branch-not-accepted", "cuda-compat 560.35.03 on a 545 host, a branch its note does not list.",
                           "545.23.08").expect("fail", "driver-libs", ["compat-host-branch-not-accepted"], headline="compat-host-branch-not-accepted")
    yield from mig_scenarios()


def mig_capabilities(s, instances, minor=0):
    """/proc/driver/nvidia/capabilities as the driver lays it out in MIG mode:
    gpuMINOR/mig/giN/access, and giN/ciM/access per compute instance."""
    base = f"/proc/driver/nvidia/capabilities/gpu{minor}/mig"
    s.directory(base)
    s.file("/proc/driver/nvidia/capabilities/mig/config", "DeviceFileMinor: 1\nDeviceFileMode: 256\nDeviceFileModify: 1\n")
    s.file("/proc/driver/nvidia/capabilities/mig/monitor", "DeviceFileMinor: 2\nDeviceFileMode: 292\nDeviceFileModify: 1\n")
    for gi, cis in instances.items():
        s.file(f"{base}/{gi}/access", "DeviceFileMinor: 21\nDeviceFileMode: 292\nDeviceFileModify: 1\n")
        for ci in cis:
            s.file(f"{base}/{gi}/{ci}/access", "DeviceFileMinor: 22\nDeviceFileMode: 292\nDeviceFileModify: 1\n")
    return s


def mig_scenarios():
    s = h100_host("host-mig-no-instances", "An H100 left in MIG mode after a reboot: its GPU instances are gone, so "
                  "CUDA sees no device although nvidia-smi lists the GPU.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Enabled, Enabled, Default\n")
    s.cuda_probe(init=100, init_name="CUDA_ERROR_NO_DEVICE")
    s.nvml_probe(devices=[nvml_device(mig_mode="Enabled", mig_devices=0)])
    yield s.expect("fail", "driver-libs", ["mig-enabled-without-instances", "cuda-init-no-device"],
                   headline="mig-enabled-without-instances")

    # The static build asks no NVML: the driver's capability files say the same.
    s = h100_host("host-mig-no-instances-static", "An H100 in MIG mode with no instances, seen by the static build: "
                  "nvidia-smi and /proc/driver/nvidia/capabilities only.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Enabled, Enabled, Default\n")
    mig_capabilities(s, {})
    s.cuda_probe(unavailable="this gpudoctor is a static build, which cannot load the driver's libraries")
    yield s.expect("fail", "driver-libs", ["mig-instances-missing"], info=["cuda-probe-unavailable", "libcuda-unversioned-missing"],
                   headline="mig-instances-missing")

    s = h100_host("host-mig-gpu-instance-without-compute", "MIG on with a GPU instance made by -cgi without -C: no compute instance, no CUDA device.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Enabled, Enabled, Default\n")
    mig_capabilities(s, {"gi1": []})
    yield s.expect("fail", "driver-libs", ["mig-instances-missing"], headline="mig-instances-missing")

    s = h100_host("host-mig-cap-node-unreadable", "CUDA_VISIBLE_DEVICES names a MIG device, but the MIG capability "
                  "nodes are 0400 root and the user is not root.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 11, Enabled, Enabled, Default\n")
    s.device("/dev/nvidia-caps/nvidia-cap21", 511, 21, mode="0400").device("/dev/nvidia-caps/nvidia-cap22", 511, 22, mode="0400")
    s.user = {"uid": 1000, "gid": 1000, "groups": [1000]}
    s.env["CUDA_VISIBLE_DEVICES"] = "MIG-4a8f1d2e-0c1b-5e3a-9d7f-2b6c8e1a0f34"
    yield s.expect("fail", "device-nodes", ["mig-capability-node-unreadable"], headline="mig-capability-node-unreadable")
