"""The hardware and kernel-module layers: PCI functions, competing drivers,
modules that are not built, blacklisted, refused, or lack firmware."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    yield (Snapshot("host-no-gpu", "A VM without any NVIDIA GPU, like the development VM.")
           .plain_vm_pci().expect("fail", "hardware", ["no-nvidia-gpu"], headline="no-nvidia-gpu"))

    yield (h100_host("host-healthy-h100", "A host with one H100, driver 550.54.15 loaded, every node in place.")
           .kernel_log("[    4.211839] nvidia: loading out-of-tree module taints kernel.\n"
                       "[    4.289532] nvidia-nvlink: Nvlink Core is being initialized, major device number 236\n"
                       "[    4.292718] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"
                       "[    4.401219] nvidia_uvm: module uses symbols nvUvmInterfaceDisableAccessCntr from proprietary module nvidia, inheriting taint.\n")
           .smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
           .cuda_probe(devices=[cuda_device()], smoke=SMOKE_PASSED)
           .nvml_probe(devices=[nvml_device()])
           .expect("ok", None, [], info=["libcuda-unversioned-missing"]))

    s = h100_host("host-pcie-degraded", "The healthy H100 host, but the link trained at x8 of x16.")
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia", width=8, speed="16.0 GT/s PCIe")
    yield s.expect("warn", None, ["pcie-link-width-degraded"], info=["pcie-link-speed-below-max"], headline="pcie-link-width-degraded")

    s = Snapshot("host-nouveau-bound", "An RTX 3090 claimed by nouveau; nvidia never loaded (FC-17).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="nouveau", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.loaded("nouveau")
    s.driver_userspace("550.54.15")
    yield s.expect("fail", "kernel-module", ["gpu-bound-to-other-driver", "nvidia-module-not-loaded"], headline="gpu-bound-to-other-driver")

    # The module is nova_core (lsmod), but its PCI driver registers as
    # "NovaCore" (drivers/gpu/nova-core/nova_core.rs, module_pci_driver! name):
    # sysfs's driver link says NovaCore.
    s = Snapshot("host-nova-core-bound", "An RTX 4090 claimed by nova-core on a new kernel (FC-17).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2684", "030000", driver="NovaCore", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.loaded("nova_core")
    s.driver_userspace("570.133.20")
    yield s.expect("fail", "kernel-module", ["gpu-bound-to-other-driver", "nvidia-module-not-loaded"], headline="gpu-bound-to-other-driver")

    # nv-pci.c's own lines when the BIOS mapped no BAR1 (Above 4G decoding off,
    # a VM's 64-bit PCI hole too small): the module loads, the GPU is refused.
    s = Snapshot("host-bar1-unassigned", "An H100 whose BAR1 the BIOS left unassigned (Above 4G decoding off): the driver refuses the GPU.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="none")
    s.nvidia_driver("550.54.15")
    s.device("/dev/nvidiactl", 195, 255).device("/dev/nvidia-uvm", 510, 0).device("/dev/nvidia-uvm-tools", 510, 1)
    s.kernel_log("[    5.015146] NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n"
                 "[    5.015150] NVRM: BAR1 is 0M @ 0x0 (PCI:0000:1b:00.0)\n"
                 "[    5.017631] nvidia 0000:1b:00.0: probe with driver nvidia failed with error -1\n"
                 "[    5.028313] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
                 "[    5.028320] NVRM: None of the NVIDIA devices were initialized.\n")
    yield s.expect("fail", "hardware", ["kernel-log-bar-unassigned", "gpu-not-claimed", "no-gpu-device-node"], headline="kernel-log-bar-unassigned")

    s = Snapshot("host-module-not-built", "Kernel updated without a DKMS rebuild: no nvidia.ko for it (FC-15).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2230", "030000")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko\nkernel/lib/crc16.ko:\n")
    s.driver_userspace("535.183.01")
    s.cuda_probe(init=35, init_name="CUDA_ERROR_INSUFFICIENT_DRIVER", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01")
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-built-for-kernel", "cuda-init-insufficient-driver"],
                   absent=["nvidia-module-not-loaded"], headline="nvidia-module-not-built-for-kernel")

    def installed_module(s, version, vermagic_release, license="NVIDIA", where="updates/dkms"):
        s.file(f"/lib/modules/{s.uname['release']}/{where}/nvidia.ko",
               tiny_module({"version": version, "license": license, "srcversion": "A1B2C3D4E5F6A7B8C9D0E1F",
                            "vermagic": f"{vermagic_release} SMP preempt mod_unload modversions "}))

    s = Snapshot("host-module-not-in-modules-dep", "The precompiled module package installed nvidia.ko for the running "
                 "kernel, but its scriptlet ran depmod for another kernel: modules.dep does not list it, and modprobe "
                 "cannot find it (NVIDIA/yum-packaging-precompiled-kmod#11).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2230", "030000")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko\nkernel/lib/crc16.ko:\n")
    s.driver_userspace("535.183.01")
    installed_module(s, "535.183.01", KERNEL, where="extra")
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-in-modules-dep"],
                   absent=["nvidia-module-not-built-for-kernel", "installed-module-wrong-kernel"],
                   headline="nvidia-module-not-in-modules-dep")

    # modprobe.d keeps nvidia out (left from a VFIO or nouveau setup); the
    # module itself is installed and fine.
    s = Snapshot("host-nvidia-blacklisted", "An H100 host whose /etc/modprobe.d blacklists nvidia: the module never loads at boot.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", f"updates/dkms/nvidia.ko: kernel/drivers/video/video.ko\n")
    installed_module(s, "550.54.15", KERNEL)
    s.file("/etc/modprobe.d/blacklist-gpu-passthrough.conf", "# for the VM\nblacklist nvidia\nblacklist nouveau\noptions vfio-pci ids=10de:2330\n")
    yield s.expect("fail", "kernel-module", ["nvidia-blacklisted", "nvidia-module-not-loaded"], headline="nvidia-blacklisted")

    # The blacklist is the cause, nouveau binding the GPU its consequence: a
    # hand-made file blacklists nvidia, nothing blacklists nouveau, so nouveau
    # takes the GPU at boot.
    s = Snapshot("host-nvidia-blacklisted-nouveau-bound", "An RTX 3090 host whose modprobe.d blacklists nvidia, so nouveau binds the GPU.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="nouveau", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.loaded("nouveau")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", f"updates/dkms/nvidia.ko: kernel/drivers/video/video.ko\n")
    installed_module(s, "550.54.15", KERNEL)
    s.file("/etc/modprobe.d/local.conf", "# tried the open driver\nblacklist nvidia\n")
    yield s.expect("fail", "kernel-module", ["nvidia-blacklisted", "gpu-bound-to-other-driver", "nvidia-module-not-loaded"],
                   headline="nvidia-blacklisted")

    # A kernel update with DKMS's module of the old kernel copied along (or a
    # module package for another kernel): vermagic names another release.
    s = Snapshot("host-installed-module-wrong-kernel", "nvidia.ko under this kernel's modules, but built for 6.1.0-17: the kernel refuses it.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "updates/dkms/nvidia.ko:\n")
    installed_module(s, "550.54.15", "6.1.0-17-amd64")
    yield s.expect("fail", "kernel-module", ["installed-module-wrong-kernel", "nvidia-module-not-loaded"], headline="installed-module-wrong-kernel")

    # Compressed modules, made by the real xz, zstd and gzip with the kernel's
    # flags, are read unpacked as kmod reads them.
    def compressed_installed_module(s, suffix, version, vermagic_release, where="updates/dkms", cut=False, signed=False, xz_check=None):
        data = compressed_module({"version": version, "license": "NVIDIA", "srcversion": "A1B2C3D4E5F6A7B8C9D0E1F",
                                  "vermagic": f"{vermagic_release} SMP preempt mod_unload modversions "}, suffix, signed, xz_check)
        s.file(f"/lib/modules/{s.uname['release']}/{where}/nvidia.ko.{suffix}", data[:len(data) // 2] if cut else data)
        s.file(f"/lib/modules/{s.uname['release']}/modules.dep", f"{where}/nvidia.ko.{suffix}:\n")

    s = Snapshot("host-zst-module-wrong-kernel", "Ubuntu 24.04's DKMS module (.ko.zst) left from the previous kernel: its vermagic names 6.1.0-17.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    compressed_installed_module(s, "zst", "550.54.15", "6.1.0-17-amd64")
    yield s.expect("fail", "kernel-module", ["installed-module-wrong-kernel", "nvidia-module-not-loaded"], headline="installed-module-wrong-kernel")

    s = Snapshot("host-xz-module-cut-short", "A DKMS build interrupted by a full disk left half an nvidia.ko.xz: modprobe cannot unpack it.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    compressed_installed_module(s, "xz", "550.54.15", KERNEL, cut=True)
    yield s.expect("fail", "kernel-module", ["installed-module-unreadable", "nvidia-module-not-loaded"],
                   absent=["installed-module-wrong-kernel"], headline="installed-module-unreadable")

    s = Snapshot("host-gz-module-blacklisted", "A .ko.gz module, readable and built for this kernel, kept out by a blacklist line.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    compressed_installed_module(s, "gz", "550.54.15", KERNEL, where="extra/nvidia")
    s.file("/etc/modprobe.d/nvidia-off.conf", "blacklist nvidia\n")
    yield s.expect("fail", "kernel-module", ["nvidia-blacklisted", "nvidia-module-not-loaded"],
                   absent=["installed-module-unreadable", "installed-module-wrong-kernel"], headline="nvidia-blacklisted")

    # The kernel's xz decoder takes CRC32 only; kmod 31 and later hand it the
    # compressed file where /sys/module/compression says xz, and DKMS before
    # 3.0.13 compressed with plain xz (CRC64): dkms#386, Debian #1061427.
    def unloaded_xz_module(name, description, kmod, xz_check=None, rpm=False):
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:1b:00.0", "10de", "2330", "030200")
        s.driver_userspace("550.54.15")
        compressed_installed_module(s, "xz", "550.54.15", KERNEL, xz_check=xz_check)
        s.file("/sys/module/compression", "xz\n")
        if rpm:  # no dpkg: kmod says its own release (tools/kmod.c: "kmod version N", then its features)
            s.children.append({"kind": "command", "args": ["kmod", "--version"], "exit": 0, "stderr": "", "timed_out": False,
                               "stdout": f"kmod version {kmod}\n+ZSTD +XZ +ZLIB +LIBCRYPTO -EXPERIMENTAL\n"})
            return s
        return s.file(
            "/var/lib/dpkg/status", f"Package: kmod\nStatus: install ok installed\nArchitecture: amd64\nVersion: {kmod}\n\n")

    s = unloaded_xz_module("host-xz-module-crc64-kernel-unpacks", "Debian 13 (kmod 34, a kernel that unpacks xz modules "
                           "itself) with an nvidia.ko.xz an old DKMS compressed with plain xz, CRC64: modprobe fails with "
                           "'Invalid argument'.", "34.2-2", xz_check="crc64")
    s.kernel_log("[    3.912345] decompression failed with status 6\n")
    yield s.expect("fail", "kernel-module", ["installed-module-xz-check-refused", "nvidia-module-not-loaded"],
                   absent=["installed-module-unreadable"], headline="installed-module-xz-check-refused")
    s = unloaded_xz_module("host-xz-module-crc64-kmod-unpacks", "The same CRC64 nvidia.ko.xz with Debian 12's kmod 30, "
                           "which unpacks modules itself: the check is not the kernel's to refuse, so the cause is elsewhere.",
                           "30+20221128-1", xz_check="crc64")
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-loaded"], absent=["installed-module-xz-check-refused"],
                   headline="nvidia-module-not-loaded")
    # An rpm system: dpkg lists nothing, kmod names its own release.
    s = unloaded_xz_module("host-xz-module-crc64-rpm-kmod-28", "RHEL 9 (kmod 28, no dpkg) with a CRC64 nvidia.ko.xz left "
                           "unloaded: kmod 28 unpacks modules itself, so the check is not why.", "28", xz_check="crc64", rpm=True)
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-loaded"], absent=["installed-module-xz-check-refused"],
                   headline="nvidia-module-not-loaded")
    s = unloaded_xz_module("host-xz-module-crc64-rpm-kmod-31", "Fedora (kmod 31, no dpkg) with a CRC64 nvidia.ko.xz on a "
                           "kernel that unpacks xz modules: the kernel's decoder refuses it.", "31", xz_check="crc64", rpm=True)
    yield s.expect("fail", "kernel-module", ["installed-module-xz-check-refused", "nvidia-module-not-loaded"],
                   headline="installed-module-xz-check-refused")
    s = unloaded_xz_module("host-xz-module-crc32-kernel-unpacks", "Debian 13 with DKMS 3.2's nvidia.ko.xz (CRC32, as the "
                           "kernel's build compresses) left unloaded: the compression is not why.", "34.2-2")
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-loaded"], absent=["installed-module-xz-check-refused"],
                   headline="nvidia-module-not-loaded")

    s = h100_host("host-healthy-xz-crc64-module-loaded", "A CRC64 nvidia.ko.xz on a kernel that unpacks xz modules, "
                  "loaded all the same (kmod unpacked it): the module is loaded, nothing to say.")
    compressed_installed_module(s, "xz", "550.54.15", KERNEL, xz_check="crc64")
    s.file("/sys/module/compression", "xz\n")
    yield s.expect("ok", None, [], absent=["installed-module-xz-check-refused"])

    # The rule's healthy twin: a compressed DKMS module, loaded and working.
    s = h100_host("host-healthy-zst-dkms-module", "Ubuntu 24.04 with the DKMS module installed as nvidia.ko.zst, loaded, every node in place.")
    compressed_installed_module(s, "zst", "550.54.15", KERNEL)
    yield s.expect("ok", None, [])

    # A GTX 1080 with the 590 driver installed: Pascal's last branch is 580, so
    # the module finds no GPU and does not load.
    s = Snapshot("host-pascal-installed-590", "A GTX 1080 host with driver 590 installed: no GPU it supports, so nvidia does not load.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "1b80", "030000", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.driver_userspace("590.44.01")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "updates/dkms/nvidia.ko:\n")
    installed_module(s, "590.44.01", KERNEL)
    s.kernel_log("[    6.300001] NVRM: The NVIDIA GeForce GTX 1080 GPU installed in this system is\n"
                 "[    6.300002] NVRM:  supported through the NVIDIA 580.xx Legacy drivers.\n"
                 "[    6.300003] NVRM: No NVIDIA GPU found.\n")
    yield s.expect("fail", "kernel-module", ["gpu-dropped-by-installed-driver", "nvidia-module-not-loaded"],
                   info=["kernel-log-no-gpu-found"], headline="gpu-dropped-by-installed-driver")

    # The open module before 545 on a GeForce, without the parameter: it
    # loads, claims the GPU, and fails its first open.
    s = Snapshot("host-open-module-geforce-535", "An RTX 4090 under the open module 535 without NVreg_OpenRmEnableUnsupportedGpus=1.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nvidia", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.nvidia_driver("535.129.03", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 4090", 0)
    s.file("/proc/driver/nvidia/params", "ResmanDebugLevel: 4294967295\nModifyDeviceFiles: 1\nOpenRmEnableUnsupportedGpus: 0\n")
    s.driver_nodes([0], version="535.129.03")
    s.devices["/dev/nvidia0"]["open"] = "EIO"
    s.file("/usr/bin/nvidia-modprobe", "")
    s.kernel_log("[   61.200001] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:762)\n"
                 "[   61.200002] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n")
    yield s.expect("fail", "kernel-module", ["open-module-unsupported-gpu", "device-open-failed", "kernel-log-rm-init-failed"], headline="open-module-unsupported-gpu")

    s = Snapshot("host-healthy-geforce-open", "An RTX 4090 under the open module 560 (which drives GeForce GPUs by default).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nvidia", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.nvidia_driver("560.35.03", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 4090", 0)
    s.file("/proc/driver/nvidia/params", "ResmanDebugLevel: 4294967295\nModifyDeviceFiles: 1\nOpenRmEnableUnsupportedGpus: 1\n")
    s.driver_nodes([0], version="560.35.03")
    s.file("/usr/bin/nvidia-modprobe", "")
    yield s.expect("ok", None, [])

    # Blackwell runs on the open module only: the proprietary one binds the GPU
    # and refuses to initialise it (the log's two-line message, as dmesg prints
    # it; Start9Labs/start-technologies#3465).
    def blackwell_proprietary(name, description):
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:01:00.0", "10de", "2b85", "030000", driver="nvidia", speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
        s.nvidia_driver("570.133.07").claimed("0000:01:00.0", "NVIDIA GeForce RTX 5090", 0)
        s.driver_nodes([0], version="570.133.07")
        s.devices["/dev/nvidia0"]["open"] = "EIO"
        s.file("/usr/bin/nvidia-modprobe", "")
        return s

    s = blackwell_proprietary("host-blackwell-proprietary-module", "An RTX 5090 under the proprietary module 570: the "
                              "driver refuses it, and RmInitAdapter's failure and the node's EIO are consequences.")
    s.kernel_log("[    5.499014] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  570.133.07  Fri Mar 14 09:20:31 UTC 2025\n"
                 "[    5.559842] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2b85)\n"
                 "               NVRM: installed in this system requires use of the NVIDIA open kernel modules.\n"
                 "[    5.559858] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:884)\n"
                 "[    5.560313] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n")
    yield s.expect("fail", "kernel-module", ["proprietary-module-on-open-only-gpu", "kernel-log-open-module-required",
                                             "kernel-log-rm-init-failed", "device-open-failed"],
                   headline="proprietary-module-on-open-only-gpu")

    s = blackwell_proprietary("host-blackwell-proprietary-module-no-log", "The same, checked by a user who may not read the "
                              "kernel log: the module's flavour and the GPU's architecture name the cause, not a GPU gone.")
    yield s.expect("fail", "kernel-module", ["proprietary-module-on-open-only-gpu", "device-open-failed"],
                   headline="proprietary-module-on-open-only-gpu")

    s = Snapshot("host-healthy-rtx5090-open", "An RTX 5090 under the open module 570, as Blackwell needs.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2b85", "030000", driver="nvidia", speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
    s.nvidia_driver("570.133.07", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 5090", 0)
    s.driver_nodes([0], version="570.133.07")
    s.file("/usr/bin/nvidia-modprobe", "")
    yield s.expect("ok", None, [])

    s = Snapshot("host-secure-boot-key-rejected", "Secure Boot on and the kernel log shows the module's signature refused.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "updates/dkms/nvidia.ko:\n")
    s.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", b"\x06\x00\x00\x00\x01")
    s.kernel_log("[    3.101010] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n")
    yield s.expect("fail", "kernel-module", ["kernel-log-module-key-rejected", "nvidia-module-blocked-by-secure-boot"], headline="kernel-log-module-key-rejected")

    # Ubuntu's signed module package (linux-modules-nvidia-550-server) puts the
    # open module in kernel/nvidia-550srv/; on a Titan V (Volta) it cannot load.
    s = Snapshot("host-open-module-installed-volta", "Ubuntu's signed open module 550 installed for a TITAN V (Volta): it never loads.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "1d81", "030000", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.driver_userspace("550.120")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "kernel/nvidia-550srv/nvidia.ko:\n")
    installed_module(s, "550.120", KERNEL, license="Dual MIT/GPL", where="kernel/nvidia-550srv")
    s.kernel_log("[    5.200001] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1d81)\n"
                 "[    5.200002] NVRM: installed in this system is not supported by open nvidia.ko\n"
                 "[    5.200003] NVRM: because it does not include the required GPU System Processor (GSP).\n")
    yield s.expect("fail", "kernel-module", ["installed-open-module-on-pre-turing-gpu", "nvidia-module-not-loaded",
                                             "kernel-log-open-module-refused"], headline="installed-open-module-on-pre-turing-gpu")

    s = h100_host("host-gsp-firmware-error", "The H100's GSP firmware fails to boot; the adapter does not initialise and its node fails to open.")
    s.devices["/dev/nvidia0"]["open"] = "EIO"
    s.kernel_log("[   12.000001] NVRM: _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP\n"
                 "[   12.000002] NVRM: kgspInitRm_IMPL: cannot bootstrap GSP-RM, failed with status 0x40\n"
                 "[   12.000003] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM\n"
                 "[   12.000004] NVRM: GPU 0000:1b:00.0: RmInitAdapter failed! (0x62:0x40:1860)\n")
    s.smi(exit=9, stdout="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n")
    yield s.expect("fail", "kernel-module", ["kernel-log-gsp-firmware-error", "kernel-log-rm-init-failed", "device-open-failed",
                                             "nvidia-smi-cannot-reach-driver"], headline="kernel-log-gsp-firmware-error")

    # GSP firmware: the open module loads, but the GPU cannot initialise
    # without nvidia/VERSION/gsp_*.bin; RmInitAdapter's failure is the consequence.
    def gsp_firmware_host(name, description, firmware):
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nvidia")
        s.nvidia_driver("550.54.15", flavour="open", firmware=firmware).claimed("0000:01:00.0", "NVIDIA GeForce RTX 4090", 0)
        s.gsp_firmware("535.183.01")  # a leftover of the previous driver
        s.driver_nodes([0], version="550.54.15")
        s.devices["/dev/nvidia0"]["open"] = "EIO"
        s.kernel_log("[    5.300001] nvidia 0000:01:00.0: Direct firmware load for nvidia/550.54.15/gsp_ga10x.bin failed with error -2\n"
                     "[    5.300002] NVRM: RmFetchGspRmImages: No firmware image found\n"
                     "[    5.300003] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x61:0x56:1594)\n"
                     "[    5.300004] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n")
        s.smi(exit=6, stdout="No devices were found\n")
        return s

    s = gsp_firmware_host("host-gsp-firmware-missing", "The open module 550 loaded, but /lib/firmware/nvidia holds only 535's GSP firmware.", firmware=False)
    yield s.expect("fail", "kernel-module", ["gsp-firmware-missing", "kernel-log-rm-init-failed", "device-open-failed", "nvidia-smi-failed"],
                   headline="gsp-firmware-missing")

    s = gsp_firmware_host("host-gsp-firmware-not-in-initramfs", "GSP firmware installed on disk, but the module came from an initramfs without it.", firmware=True)
    yield s.expect("fail", "kernel-module", ["gsp-firmware-missing", "kernel-log-rm-init-failed", "device-open-failed", "nvidia-smi-failed"],
                   headline="gsp-firmware-missing")

    s = Snapshot("host-secure-boot", "The DKMS module exists but Secure Boot refused it (FC-16).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2230", "030000")
    s.file(f"/lib/modules/{KERNEL}/modules.dep",
           "updates/dkms/nvidia.ko.xz:\nupdates/dkms/nvidia-uvm.ko.xz: updates/dkms/nvidia.ko.xz\n")
    s.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", b"\x06\x00\x00\x00\x01")
    s.driver_userspace("550.54.15")
    yield s.expect("fail", "kernel-module", ["nvidia-module-blocked-by-secure-boot"], absent=["nvidia-module-not-loaded"], headline="nvidia-module-blocked-by-secure-boot")

    # Secure Boot, one step deeper: is the module modprobe loads signed, and is
    # a signing key on disk enrolled (its DER certificate in MokListRT or db)?
    secure_boot_on = b"\x06\x00\x00\x00\x01"
    dkms_key = b"\x30\x82\x03\x1a" + b"DKMS module signing key".ljust(60, b".")  # a DER certificate's shape
    other_key = b"\x30\x82\x02\x10" + b"Canonical Ltd. Master Certificate".ljust(60, b".")

    def mok_list(*certificates):
        # efivarfs: 4 bytes of attributes, then EFI_SIGNATURE_LISTs (header bytes stand in; the certificates are real bytes).
        return b"\x07\x00\x00\x00" + b"".join(b"\xa1\x59\xc0\xa5" + b"\x00" * 24 + c for c in certificates)

    def secure_boot_host(name, description, signed, enrolled, log):
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:01:00.0", "10de", "2684", "030000")
        s.driver_userspace("550.120")
        compressed_installed_module(s, "zst", "550.120", KERNEL, signed=signed)
        s.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", secure_boot_on)
        s.file("/var/lib/dkms/mok.pub", dkms_key)
        s.file("/var/lib/dkms/mok.key", "-----BEGIN PRIVATE KEY-----\n")
        s.file("/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23",
               mok_list(other_key, dkms_key) if enrolled else mok_list(other_key))
        s.kernel_log(log)
        return s

    s = secure_boot_host("host-secure-boot-unsigned-dkms", "Secure Boot on; DKMS built nvidia.ko.zst without signing it: lockdown refuses it.",
                         signed=False, enrolled=True,
                         log="[    4.100001] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n")
    yield s.expect("fail", "kernel-module", ["secure-boot-module-unsigned", "nvidia-module-blocked-by-secure-boot", "kernel-log-module-key-rejected"],
                   absent=["secure-boot-signing-key-not-enrolled"], headline="secure-boot-module-unsigned")

    s = secure_boot_host("host-secure-boot-key-not-enrolled", "Secure Boot on; the module is signed with DKMS's key, which was never enrolled in MOK.",
                         signed=True, enrolled=False,
                         log="[    4.100001] Loading of module with unavailable key is rejected\n")
    yield s.expect("fail", "kernel-module", ["secure-boot-signing-key-not-enrolled", "nvidia-module-blocked-by-secure-boot", "kernel-log-module-key-rejected"],
                   absent=["secure-boot-module-unsigned"], headline="secure-boot-signing-key-not-enrolled")

    s = secure_boot_host("host-secure-boot-key-enrolled", "Secure Boot on, the module signed with an enrolled key, but it is not loaded yet: only the generic finding "
                         "(Secure Boot is not named: its key is in place).", signed=True, enrolled=True, log="")
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-loaded"],
                   absent=["secure-boot-module-unsigned", "secure-boot-signing-key-not-enrolled", "nvidia-module-blocked-by-secure-boot"],
                   headline="nvidia-module-not-loaded")

    s = secure_boot_host("host-secure-boot-enrolled-key-rejected", "Secure Boot on, the module signed with a key enrolled in MOK, and the "
                         "kernel rejects it: a kernel built without the machine keyring takes no MOK key for modules "
                         "(CachyOS/linux-cachyos#863).", signed=True, enrolled=True,
                         log="[    4.100001] Loading of module with unavailable key is rejected\n")
    yield s.expect("fail", "kernel-module", ["secure-boot-enrolled-key-rejected", "nvidia-module-not-loaded"],
                   absent=["secure-boot-signing-key-not-enrolled", "kernel-log-module-key-rejected", "nvidia-module-blocked-by-secure-boot"],
                   headline="secure-boot-enrolled-key-rejected")

    # The new rules' healthy twin: Secure Boot on, the signed module loaded.
    s = h100_host("host-healthy-secure-boot-dkms", "Secure Boot on, DKMS's signed nvidia.ko.zst loaded, its key enrolled in MOK.")
    compressed_installed_module(s, "zst", "550.54.15", KERNEL, signed=True)
    s.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", secure_boot_on)
    s.file("/var/lib/dkms/mok.pub", dkms_key)
    s.file("/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23", mok_list(other_key, dkms_key))
    yield s.expect("ok", None, [])

    s = Snapshot("host-open-module-pascal", "The open kernel module on a GTX 1080, which it cannot drive.")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "1b80", "030000", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("560.35.03", flavour="open").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="560.35.03")
    s.kernel_log("[    5.100001] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1b80)\n"
                 "[    5.100002] NVRM: installed in this system is not supported by open nvidia.ko\n"
                 "[    5.100003] NVRM: because it does not include the required GPU System Processor (GSP).\n")
    yield s.expect("fail", "kernel-module", ["open-module-on-pre-turing-gpu", "no-gpu-device-node", "kernel-log-open-module-refused"],
                   absent=["gpu-not-claimed"], headline="open-module-on-pre-turing-gpu")

    s = Snapshot("host-gpu-newer-than-driver", "An RTX 5090 next to driver 535: the module claimed nothing.")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2b85", "030000")
    s.nvidia_driver("535.183.01").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="535.183.01")
    yield s.expect("fail", "kernel-module", ["gpu-newer-than-driver", "no-gpu-device-node"], absent=["gpu-not-claimed"], headline="gpu-newer-than-driver")

    s = Snapshot("host-uvm-on-demand", "A host where nvidia_uvm is not loaded yet but nvidia-modprobe will load it.")
    s.plain_vm_pci().pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia")
    s.nvidia_driver("550.54.15", uvm=False).claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], uvm=False, version="550.54.15").file("/usr/bin/nvidia-modprobe", "")
    s.driver_userspace("550.54.15").cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [], info=["nvidia-uvm-loads-on-demand", "libcuda-unversioned-missing"])

    s = Snapshot("host-cuinit-999-uvm-not-loadable", "nvidia_uvm is not loaded and nvidia-modprobe could not load it: cuInit returns 999.")
    s.plain_vm_pci().pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia")
    s.nvidia_driver("550.54.15", uvm=False).claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], uvm=False, version="550.54.15").file("/usr/bin/nvidia-modprobe", "")
    s.cuda_probe(init=999, init_name="CUDA_ERROR_UNKNOWN")
    yield s.expect("fail", "kernel-module", ["cuda-init-unknown-error-without-uvm", "cuda-init-unknown-error"],
                   info=["nvidia-uvm-loads-on-demand", "libcuda-unversioned-missing"], headline="cuda-init-unknown-error-without-uvm")

    s = Snapshot("container-uvm-missing", "Podman container with nvidiactl and nvidia0 but no nvidia-uvm (FC-19).")
    s.pci("0000:01:00.0", "10de", "1eb8", "030200", driver="nvidia", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("535.161.08", uvm=False).claimed("0000:01:00.0", "Tesla T4", 0)
    s.file("/run/.containerenv", "engine=\"podman-4.9.3\"\n").file("/proc/self/cgroup", "0::/\n")
    s.env.update({"container": "podman", "NVIDIA_VISIBLE_DEVICES": "all"})
    s.driver_nodes([0], uvm=False, version="535.161.08")
    yield s.expect("fail", "kernel-module", ["nvidia-uvm-not-loaded", "nvidia-uvm-node-missing"], headline="nvidia-uvm-not-loaded")
