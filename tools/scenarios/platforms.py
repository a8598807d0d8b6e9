"""Platforms and how each looks when healthy: HGX with NVSwitch, WSL2,
CDI and Kubernetes containers, RHEL, NixOS, GH200, gVisor, GPU Operator nodes, Arch Linux; and garbage input."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    buses = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
    def hgx_host(name, description, fabric_manager="enabled", userspace=True, fm_running=True):
        s = Snapshot(name, description).plain_vm_pci()
        s.nvidia_driver("550.90.07", userspace=userspace)
        for index, bus in enumerate(buses):
            bdf = f"0000:{bus}:00.0"
            s.pci(bdf, "10de", "2330", "030200", driver="nvidia", numa=str(index // 4))
            s.claimed(bdf, "NVIDIA H100 80GB HBM3", index)
        for index, bus in enumerate(["05", "06", "07", "08"]):
            s.pci(f"0000:{bus}:00.0", "10de", "22a3", "068000", driver="nvidia-nvswitch", subsystem=("10de", "1796"))
            s.device(f"/dev/nvidia-nvswitch{index}", 508, index)
        s.device("/dev/nvidia-nvswitchctl", 508, 255)
        s.driver_nodes(range(8), version="550.90.07")
        s.file("/proc/devices", "Character devices:\n195 nvidia\n508 nvidia-nvswitch\n510 nvidia-uvm\n511 nvidia-caps\n")
        s.process(1, "systemd")
        if fabric_manager:  # the nvidia-fabricmanager-550 package, its unit enabled
            s.file("/usr/bin/nv-fabricmanager", "").file("/usr/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n")
            if fabric_manager == "enabled":
                s.link("/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service",
                       "/usr/lib/systemd/system/nvidia-fabricmanager.service")
                if fm_running:
                    s.process(2817, "nv-fabricmanage")
        return s

    s = hgx_host("host-hgx-8gpu-nvswitch", "An HGX H100 server: 8 GPUs and 4 NVSwitches, all healthy.")
    s.cuda_probe(devices=[cuda_device(i, bus.upper()) for i, bus in enumerate(buses)],
                 mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="completed") for i, bus in enumerate(buses)])
    yield s.expect("ok", None, [])

    # NVSwitch SXids, as the driver prints them (NVSWITCH_PRINT_SXID): a report's first line, then Severity and Data lines.
    def healthy_hgx(name, description):
        s = hgx_host(name, description)
        s.cuda_probe(devices=[cuda_device(i, bus.upper()) for i, bus in enumerate(buses)],
                     mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
        s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="completed") for i, bus in enumerate(buses)])
        return s

    def sxid_report(stamp, switch, bus, code, first):
        prefix = f"[{stamp}] nvidia-nvswitch{switch}: SXid (PCI:0000:{bus}:00.0): {code:05d}, "
        return (prefix + first + "\n" + prefix + "Severity 1 Engine instance 48 Sub-engine instance 00\n" +
                prefix + "Data {0x00000004, 0x00000004, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}\n")

    s = healthy_hgx("host-hgx-sxid-non-fatal", "An HGX node whose NVSwitches logged non-fatal SXids (single-bit ECC, 200 "
                    "reports): the guide asks for nothing; one finding per code and NVSwitch.")
    s.kernel_log("".join(sxid_report(f"{1000 + i}.000001", 1, "06", 24001, "Non-fatal, Link 12 single bit ECC error") for i in range(200)))
    yield s.expect("ok", None, [], info=["nvswitch-sxid-no-action"], action="none")

    s = healthy_hgx("host-hgx-sxid-fatal-link", "An HGX node's NVSwitch reported a fatal link error (SXid 20034, LTSSM "
                    "Fault Up): the jobs on that port were aborted, the GPUs and NVSwitches want a reset.")
    s.kernel_log(sxid_report("6781753.400584", 1, "06", 20034, "Fatal, Link 48 LTSSM Fault Up"))
    yield s.expect("warn", None, ["nvswitch-sxid-needs-reset"], headline="nvswitch-sxid-needs-reset", action="drain-and-reset")

    s = healthy_hgx("host-hgx-sxid-always-fatal", "An HGX node's NVSwitch reported an always-fatal SXid: the fabric stays "
                    "down until the host restarts.")
    s.kernel_log(sxid_report("512.000001", 2, "07", 12020, "Fatal, Link 04 egress sequence ID error"))
    yield s.expect("fail", "hardware", ["nvswitch-sxid-needs-reboot"], headline="nvswitch-sxid-needs-reboot", action="reboot-node")

    s = healthy_hgx("host-hgx-sxid-thermal", "An NVSwitch slowed down for heat and recovered (SXid 10004, then 10005): "
                    "the cooling wants a look.")
    s.kernel_log(f"[901.000001] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 10004, Thermal slowdown Engaged\n"
                 f"[960.000001] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 10005, Thermal slowdown Disengaged\n")
    yield s.expect("warn", None, ["nvswitch-sxid-thermal"], info=["nvswitch-sxid-no-action"], headline="nvswitch-sxid-thermal",
                   action="inspect-hardware")

    s = healthy_hgx("host-hgx-sxid-renumbered", "An SXid from the codes driver 550 renumbered (29006), which the guide's "
                    "tables gpudoctor carries do not list: said, not judged.")
    s.kernel_log(sxid_report("77.000001", 3, "08", 29006, "Non-fatal, Link 46 MC TS crumbstore MCTO (First)"))
    yield s.expect("ok", None, [], info=["nvswitch-sxid-not-in-catalog"], action="none")

    # Past the caps of 64 codes per GPU or NVSwitch: said (info), and nothing that needs recovery is pushed out.
    s = healthy_hgx("host-hgx-sxid-many-codes", "Weeks of non-fatal SXids on all four NVSwitches: 17 codes on each (single-bit "
                    "ECC, replays), more pairs of code and NVSwitch than gpudoctor keeps apart.")
    benign_sxids = [10001, 10002, 11012, 11021, 11022, 11023, 12021, 12023, 15008, 15011, 19049, 19055, 19057, 19059, 19062,
                    20001, 24001]
    s.kernel_log("".join(sxid_report(f"{100 + i}.000001", switch, bus, code, "Non-fatal, Link 12 single bit ECC error")
                         for switch, bus in enumerate(["05", "06", "07", "08"]) for i, code in enumerate(benign_sxids)))
    yield s.expect("ok", None, [], info=["nvswitch-sxid-no-action", "kernel-log-sxids-cut"], action="none")

    s = hgx_host("host-hgx-xid-flood-then-uncontained", "Students' jobs logged their own Xids (13, 31, 43, 45, 68...) "
                 "on all eight GPUs, nine codes each; then one GPU had an uncontained memory error (Xid 95), checked from "
                 "files (--no-probe). The flood passes the cap, and the Xid 95 after it is still judged.")
    benign_xids = [11, 13, 25, 31, 43, 45, 68, 69, 80]
    s.kernel_log("".join(f"[{2000 + 10 * g + i}.000001] NVRM: Xid (PCI:0000:{bus}:00): {code}, pid={3000 + g}, name=python3, "
                         f"Ch 00000010\n" for g, bus in enumerate(buses) for i, code in enumerate(benign_xids)) +
                 "[9000.000001] NVRM: Xid (PCI:0000:5d:00): 95, pid=3003, name=python3, Uncontained: FBHUB. RST: Yes, D-RST: No\n")
    yield s.expect("fail", "hardware", ["gpu-xid-needs-recovery"], info=["gpu-xid-no-action", "kernel-log-xids-cut"],
                   headline="gpu-xid-needs-recovery", action="reset-gpu")

    s = hgx_host("host-hgx-fabric-manager-down", "The HGX server after a driver update: Fabric Manager is not running, so cuInit returns 802.",
                 fm_running=False)
    s.cuda_probe(init=802, init_name="CUDA_ERROR_SYSTEM_NOT_READY", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="not-started") for i, bus in enumerate(buses)])
    yield s.expect("fail", "driver-libs", ["fabric-manager-not-running", "cuda-init-system-not-ready", "gpu-fabric-not-ready"],
                   headline="fabric-manager-not-running", action="fix-configuration")

    # Stopped after it set the fabric up (NVSentinel #889): CUDA works today, the next reset or boot will not.
    s = hgx_host("host-hgx-fabric-manager-stopped", "The HGX server's Fabric Manager died after it set the fabric up: "
                 "cuInit works, nothing keeps the fabric.", fm_running=False)
    s.cuda_probe(devices=[cuda_device(i, bus.upper()) for i, bus in enumerate(buses)],
                 mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="completed") for i, bus in enumerate(buses)])
    yield s.expect("warn", None, ["fabric-manager-not-running"], headline="fabric-manager-not-running", action="fix-configuration")

    # Fabric Manager refuses a driver of another version (gpu-operator#544, gpu-driver-container#735): its log says so.
    def fm_log(*lines):
        return "".join(f"[Dec 04 2026 0{i}:12:55] [ERROR] [tid 3228] {line}\n" for i, line in enumerate(lines))
    mismatch = "fabric manager NVIDIA GPU driver interface version {} don't match with driver version {}. Please update with matching NVIDIA driver package."
    s = hgx_host("host-hgx-fabric-manager-version-mismatch", "The driver was updated to 550.90.07 without Fabric Manager, "
                 "still 550.54.15: it refuses to start, and cuInit returns 802.", fm_running=False)
    s.file("/var/log/fabricmanager.log", fm_log(mismatch.format("550.54.15", "550.90.07")))
    s.cuda_probe(init=802, init_name="CUDA_ERROR_SYSTEM_NOT_READY", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="not-started") for i, bus in enumerate(buses)])
    yield s.expect("fail", "driver-libs", ["fabric-manager-version-mismatch", "fabric-manager-not-running", "cuda-init-system-not-ready",
                                           "gpu-fabric-not-ready"], headline="fabric-manager-version-mismatch", action="fix-configuration")

    s = hgx_host("host-hgx-fabric-manager-mismatch-in-journal", "Fabric Manager 560.35.03 beside driver 550.90.07, "
                 "its refusal only in its unit's journal (no log file).", fm_running=False)
    s.children.append({"kind": "command", "args": ["journalctl", "-u", "nvidia-fabricmanager.service", "-b", "-o", "cat", "--no-pager", "-q",
                                                   "-n", "200"], "exit": 0, "timed_out": False, "stderr": "",
                       "stdout": "Starting NVIDIA fabric manager service...\n" +
                                 mismatch.replace("don't", "doesn't").format("560.35.03", "550.90.07") + "\n"})
    yield s.expect("fail", "driver-libs", ["fabric-manager-version-mismatch", "fabric-manager-not-running"],
                   headline="fabric-manager-version-mismatch")

    s = hgx_host("host-hgx-fabric-manager-old-mismatch-healthy", "A healthy HGX node whose Fabric Manager log still holds "
                 "its refusal of the driver before the last update: it runs now, with the driver it matches.")
    s.file("/var/log/fabricmanager.log", fm_log(mismatch.format("550.90.07", "550.54.15")))
    s.cuda_probe(devices=[cuda_device(i, bus.upper()) for i, bus in enumerate(buses)],
                 mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="completed") for i, bus in enumerate(buses)])
    yield s.expect("ok", None, [], absent=["fabric-manager-version-mismatch", "fabric-manager-not-running"])

    # Fabric Manager's package against the driver (dpkg's status), where it left no refusal to read.
    def fm_package(version):
        return ("Package: libc6\nStatus: install ok installed\nVersion: 2.36-9+deb12u4\n\n"
                f"Package: nvidia-fabricmanager-550\nStatus: install ok installed\nArchitecture: amd64\nVersion: {version}-1\n")

    s = hgx_host("host-hgx-fabric-manager-package-mismatch", "The driver was updated to 550.90.07 and Fabric Manager's package "
                 "is still 550.54.15; it is stopped and left no log: dpkg's status says why.", fm_running=False)
    s.file("/var/lib/dpkg/status", fm_package("550.54.15"))
    s.cuda_probe(init=802, init_name="CUDA_ERROR_SYSTEM_NOT_READY", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="not-started") for i, bus in enumerate(buses)])
    yield s.expect("fail", "driver-libs", ["fabric-manager-package-mismatch", "fabric-manager-not-running", "cuda-init-system-not-ready",
                                           "gpu-fabric-not-ready"], headline="fabric-manager-package-mismatch", action="fix-configuration")

    s = hgx_host("host-hgx-fabric-manager-package-matches", "A healthy HGX node whose Fabric Manager package is the driver's release.")
    s.file("/var/lib/dpkg/status", fm_package("550.90.07"))
    s.cuda_probe(devices=[cuda_device(i, bus.upper()) for i, bus in enumerate(buses)],
                 mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="completed") for i, bus in enumerate(buses)])
    yield s.expect("ok", None, [], absent=["fabric-manager-package-mismatch", "fabric-manager-not-running"])

    s = hgx_host("host-hgx-fabric-manager-stopped-package-matches", "Fabric Manager is stopped, though its package is the "
                 "driver's release: the stop is the cause, not the versions.", fm_running=False)
    s.file("/var/lib/dpkg/status", fm_package("550.90.07"))
    yield s.expect("fail", "driver-libs", ["fabric-manager-not-running"], headline="fabric-manager-not-running",
                   absent=["fabric-manager-package-mismatch"])

    s = hgx_host("host-hgx-fabric-manager-stale-mismatch", "Fabric Manager is not running, and its log's refusal names "
                 "a driver that is no longer loaded: that line says nothing of today's stop.", fm_running=False)
    s.file("/var/log/fabricmanager.log", fm_log(mismatch.format("550.90.07", "550.54.15")))
    yield s.expect("fail", "driver-libs", ["fabric-manager-not-running"], headline="fabric-manager-not-running",
                   absent=["fabric-manager-version-mismatch"])

    # From files alone (--root, --no-probe, a snapshot without the driver's answers): no Fabric Manager at all.
    s = hgx_host("host-hgx-no-fabric-manager", "An HGX H100 server whose image never got nvidia-fabricmanager: "
                 "every CUDA program will fail with 802, told from files alone.", fabric_manager=None)
    yield s.expect("fail", "driver-libs", ["fabric-manager-missing"], headline="fabric-manager-missing")

    s = hgx_host("host-hgx-fabric-manager-disabled", "Fabric Manager installed but its unit not enabled: the next "
                 "boot comes up without the NVLink fabric.", fabric_manager="installed")
    yield s.expect("warn", None, ["fabric-manager-not-enabled"], headline="fabric-manager-not-enabled")

    s = hgx_host("host-hgx-fabric-manager-masked", "An admin masked Fabric Manager (`systemctl mask`) while debugging the "
                 "fabric, then rebooted: systemd starts it neither at boot nor by hand, and cuInit returns 802.", fm_running=False)
    s.link("/etc/systemd/system/nvidia-fabricmanager.service", "/dev/null")
    s.cuda_probe(init=802, init_name="CUDA_ERROR_SYSTEM_NOT_READY", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="not-started") for i, bus in enumerate(buses)])
    yield s.expect("fail", "driver-libs", ["fabric-manager-masked", "cuda-init-system-not-ready", "gpu-fabric-not-ready"],
                   absent=["fabric-manager-not-enabled"], headline="fabric-manager-masked", action="fix-configuration")

    # A GPU Operator HGX node: Fabric Manager runs inside the driver container
    # (its root at /run/nvidia/driver), so the host has neither program nor unit.
    s = hgx_host("host-gpu-operator-hgx", "An HGX H100 node of the GPU Operator: the driver and Fabric Manager live in its "
                 "driver container.", fabric_manager=None, userspace=False)
    operator_driver_root(s, "550.90.07")
    s.file("/run/nvidia/driver/usr/bin/nv-fabricmanager", "")
    yield s.expect("ok", None, [], info=["gpu-operator-driver-container"], absent=["fabric-manager-missing", "fabric-manager-not-enabled"])

    # WSL's share holds one driver as copies and its own nvidia-smi, which
    # sudo and ssh sessions do not have on PATH: nothing there is a leftover,
    # and nothing may be linked, removed or installed over it (FC-41, 43, 44).
    def wsl2_host(name, description, smi=True, smi_on_path=False):
        s = Snapshot(name, description)
        s.uname["release"] = "5.15.153.1-microsoft-standard-WSL2"
        s.pci("0000:00:00.0", "1414", "008e", "030200", subsystem=("1414", "0000"))
        s.device("/dev/dxg", 10, 125)
        wsl_libraries(s, smi=smi)
        if smi_on_path:
            s.env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/wsl/lib"
        # What WSL's libraries answer (an RTX 4070 on the Windows side; NVML has no PCI info there).
        rtx = {"name": "NVIDIA GeForce RTX 4070", "bus": "01"}
        s.cuda_probe(devices=[dict(cuda_device(0, rtx["bus"], rtx["name"]), compute_capability="8.9", memory_total_mib=12282)],
                     mapped="/usr/lib/wsl/lib/libcuda.so.1.1", version=12080)
        s.nvml_probe(driver="572.16", cuda=12080, mapped="/usr/lib/wsl/lib/libnvidia-ml.so.1",
                     devices=[nvml_device(0, rtx["bus"], rtx["name"], compute_capability="8.9", memory_total_mib=12282,
                                          memory_used_mib=1210, power_limit_w=200.0, persistence_mode="Enabled",
                                          ecc_uncorrected_volatile=None, ecc_uncorrected_aggregate=None)])
        if smi:
            s.smi(stdout="0, 572.16, NVIDIA GeForce RTX 4070, GPU-5a1c0f3e-21b4-4d7e-9c0a-7e1f2b3c4d5e, 00000000:01:00.0, "
                         "8.9, 12282, 1210, [N/A], Enabled, Default\n", program="/usr/lib/wsl/lib/nvidia-smi")
        return s

    harmful = ["driver-libs-leftover-libcuda", "libcuda-unversioned-missing", "nvidia-smi-not-on-path"]
    s = wsl2_host("wsl2-healthy", "WSL2 with a working GPU: /dev/dxg, no PCI GPU, no Linux module; nvidia-smi in "
                  "/usr/lib/wsl/lib, off this PATH (sudo's secure_path).")
    yield s.expect("ok", None, [], info=["wsl-libcuda-not-a-symlink-is-harmless", "wsl-nvidia-smi-off-path",
                                         "wsl-libcuda-unversioned-not-cached"], absent=harmful + ["wsl-nvidia-smi-missing"])

    s = wsl2_host("wsl2-healthy-login-shell", "WSL2 as its login shell sees it: /usr/lib/wsl/lib on PATH.", smi_on_path=True)
    yield s.expect("ok", None, [], absent=harmful + ["wsl-nvidia-smi-off-path", "wsl-nvidia-smi-missing"])

    s = wsl2_host("wsl2-nvidia-smi-missing", "WSL2 whose Windows driver put no nvidia-smi in /usr/lib/wsl/lib.", smi=False)
    yield s.expect("ok", None, [], info=["wsl-nvidia-smi-missing"], absent=harmful + ["wsl-nvidia-smi-off-path"])

    # Docker Desktop's WSL2 backend with --gpus all. nvidia-container-cli on
    # WSL2 (libnvidia-container src/nvc_info.c select_wsl_libraries,
    # src/nvc_mount.c nvc_driver_mount) skips the procfs mount, mounts
    # /dev/dxg, and bind-mounts the driver-store files into the container's
    # library directory under their own names (libcuda.so.1.1), linking the
    # SONAMEs to them; the in-container ldconfig then caches them.
    s = Snapshot("wsl2-docker-desktop-healthy", "A Docker Desktop (WSL2) container with --gpus all: WSL's libraries mounted into /usr/lib/x86_64-linux-gnu.")
    s.uname["release"] = "5.15.153.1-microsoft-standard-WSL2"
    s.pci("0000:00:00.0", "1414", "008e", "030200", subsystem=("1414", "0000"))
    s.device("/dev/dxg", 10, 125)
    s.file("/.dockerenv", "").env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    store = "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_7f1f7e5bd0b5a2c3"
    lib = "/usr/lib/x86_64-linux-gnu"
    mounts = ["1071 1000 0:62 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A",
              "1102 1071 0:88 /dxg /dev/dxg rw,nosuid - devtmpfs none rw"]
    for index, (name, soname) in enumerate((("libcuda.so.1.1", "libcuda.so.1"), ("libcuda_loader.so", None),
                                            ("libnvidia-ml.so.1", None), ("libnvidia-ml_loader.so", None),
                                            ("libnvidia-ptxjitcompiler.so.1", None), ("libdxcore.so", None))):
        s.file(f"{lib}/{name}", tiny_elf(soname or name))
        mounts.append(f"{1110 + index} 1071 0:90 {store}/{name} {lib}/{name} ro,nosuid,nodev,relatime master:2 - 9p drivers ro")
        if soname:
            s.link(f"{lib}/{soname}", name)
    s.file("/usr/bin/nvidia-smi", "")
    mounts.append(f"1120 1071 0:90 {store}/nvidia-smi /usr/bin/nvidia-smi ro,nosuid,nodev,relatime master:2 - 9p drivers ro")
    s.env.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    s.file("/proc/self/mountinfo", "\n".join(mounts) + "\n")
    s.file("/proc/self/cgroup", "0::/\n")
    s.file(f"{lib}/libc.so.6", tiny_elf("libc.so.6"))
    s.directory("/lib/x86_64-linux-gnu")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", f"{lib}/libcuda.so.1"), ("libnvidia-ml.so.1", f"{lib}/libnvidia-ml.so.1"),
                                         ("libnvidia-ptxjitcompiler.so.1", f"{lib}/libnvidia-ptxjitcompiler.so.1")]))
    yield s.expect("ok", None, [], absent=["wsl-linux-driver-shadows-wsl"])

    # CDI (docker --device nvidia.com/gpu=all, podman, containerd): the spec
    # that nvidia-ctk cdi generate writes (pkg/nvcdi) sets NVIDIA_VISIBLE_DEVICES
    # =void on purpose, so that the legacy hook does not inject a second time,
    # and NVIDIA_CTK_LIBCUDA_DIR; it bind-mounts the driver's libraries at their
    # host paths, and its update-ldcache hook writes /etc/ld.so.conf.d/00-nvcr-*.conf.
    s = h100_host("container-healthy-cdi", "A CDI container (--device nvidia.com/gpu=all): NVIDIA_VISIBLE_DEVICES=void by the spec, everything injected.")
    s.in_docker(legacy=False).env.update({"NVIDIA_VISIBLE_DEVICES": "void", "NVIDIA_CTK_LIBCUDA_DIR": "/usr/lib/x86_64-linux-gnu",
                                           "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    s.file("/etc/ld.so.conf.d/00-nvcr-2961453620.conf", "/usr/lib/x86_64-linux-gnu\n")
    mounts = s.files["/proc/self/mountinfo"].rstrip("\n").split("\n")
    for index, name in enumerate(("libcuda.so.550.54.15", "libnvidia-ml.so.550.54.15", "libnvidia-ptxjitcompiler.so.550.54.15")):
        path = "/usr/lib/x86_64-linux-gnu/" + name
        mounts.append(f"{1200 + index} 1071 259:2 {path} {path} ro,nosuid,nodev,relatime master:1 - ext4 /dev/nvme0n1p2 rw")
    s.file("/proc/self/mountinfo", "\n".join(mounts) + "\n")
    yield s.expect("ok", None, [], absent=["container-gpu-void", "container-gpu-not-injected"])

    # Kubernetes with the device plugin's default envvar strategy: the plugin
    # sets NVIDIA_VISIBLE_DEVICES to the allocated GPU's UUID, and the nvidia
    # runtime's legacy hook injects it.
    s = h100_host("k8s-device-plugin-healthy", "A pod given nvidia.com/gpu: 1 by the device plugin (envvar strategy, legacy hook).")
    s.in_docker(legacy=True)
    s.files.pop("/.dockerenv")
    s.file("/proc/self/cgroup", "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1234.slice/cri-containerd-abcd.scope\n")
    s.env.update({"KUBERNETES_SERVICE_HOST": "10.96.0.1", "NVIDIA_VISIBLE_DEVICES": "GPU-00000000-0000-0000-0000-000000000000",
                  "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    yield s.expect("ok", None, [])

    # The device plugin's volume-mounts strategy (for clusters that refuse the
    # variable from unprivileged pods): NVIDIA_VISIBLE_DEVICES names
    # /var/run/nvidia-container-devices and each device is a /dev/null mounted below it.
    s = h100_host("k8s-volume-mounts-healthy", "A pod under the device plugin's volume-mounts strategy: devices are mounts below /var/run/nvidia-container-devices.")
    s.in_docker(legacy=True)
    s.files.pop("/.dockerenv")
    s.file("/proc/self/cgroup", "0::/kubepods.slice/kubepods-pod5678.slice/cri-containerd-ef01.scope\n")
    s.env.update({"KUBERNETES_SERVICE_HOST": "10.96.0.1", "NVIDIA_VISIBLE_DEVICES": "/var/run/nvidia-container-devices"})
    s.file("/var/run/nvidia-container-devices/GPU-00000000-0000-0000-0000-000000000000", "")
    yield s.expect("ok", None, [], absent=["container-visible-devices-invalid"])

    # RHEL 9 with NVIDIA's RPMs: 64-bit libraries in /usr/lib64, no multiarch
    # directories, the cache pointing there.
    s = Snapshot("host-healthy-rhel", "RHEL 9 with NVIDIA's driver RPMs: libraries in /usr/lib64.").plain_vm_pci()
    s.uname["release"] = "5.14.0-427.13.1.el9_4.x86_64"
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia")
    s.nvidia_driver("550.54.15", userspace=False).claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], version="550.54.15")
    s.file("/usr/bin/nvidia-modprobe", "")
    for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                         ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"), ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
        s.file(f"/usr/lib64/{stem}.550.54.15", tiny_elf(soname, ["libc.so.6"]))
        s.link(f"/usr/lib64/{soname}", f"{stem}.550.54.15")
    s.file("/usr/lib64/libc.so.6", tiny_elf("libc.so.6"))
    s.file("/usr/bin/nvidia-smi", "").env.setdefault("PATH", "/usr/local/bin:/usr/bin")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", "/usr/lib64/libcuda.so.1"), ("libnvidia-ml.so.1", "/usr/lib64/libnvidia-ml.so.1"),
                                         ("libnvidia-ptxjitcompiler.so.1", "/usr/lib64/libnvidia-ptxjitcompiler.so.1"),
                                         ("libnvidia-nvvm.so.4", "/usr/lib64/libnvidia-nvvm.so.4"), ("libc.so.6", "/usr/lib64/libc.so.6")]))
    yield s.expect("ok", None, [])

    # NixOS: no /etc/ld.so.cache and no driver in the default directories; the
    # driver lives in /run/opengl-driver/lib, which nixpkgs puts in every
    # program's RUNPATH (addDriverRunpath), and the module in the booted system.
    s = Snapshot("host-healthy-nixos", "NixOS with hardware.nvidia: the driver reached through /run/opengl-driver/lib, no ld.so.cache.").plain_vm_pci()
    s.uname["release"] = "6.6.30"
    s.file("/etc/NIXOS", "")
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia")
    s.nvidia_driver("550.54.15", userspace=False).claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], version="550.54.15")
    store = "/nix/store/6kq3q1r0wz1c7y0l1d9s2m5k4v8b3n2x-nvidia-x11-550.54.15-6.6.30/lib"
    for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                         ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"), ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
        s.file(f"{store}/{stem}.550.54.15", tiny_elf(soname))
        s.link(f"{store}/{soname}", f"{stem}.550.54.15")
    s.link("/run/opengl-driver", "/nix/store/0b3l5m8f2k1x9y7w6v4u3t2s1r0q9p8o-graphics-drivers")
    s.link("/nix/store/0b3l5m8f2k1x9y7w6v4u3t2s1r0q9p8o-graphics-drivers/lib", store)
    s.file("/run/current-system/sw/bin/nvidia-smi", "").env["PATH"] = "/run/wrappers/bin:/run/current-system/sw/bin"
    s.directory("/usr/lib")
    yield s.expect("ok", None, [], absent=["libcuda-not-found"])

    # A Grace Hopper (GH200) server: aarch64, Ubuntu's multiarch layout. NVIDIA supports
    # Grace Hopper with the open module only; the proprietary one drives it without
    # refusing it (unlike Blackwell): a warning, never a failure.
    def gh200_aarch64(name, description, flavour):
        s = Snapshot(name, description)
        s.uname.update({"release": "6.8.0-1008-nvidia-64k", "machine": "aarch64"})
        s.pci("0009:01:00.0", "10de", "2342", "030200", driver="nvidia")
        s.nvidia_driver("550.54.15", flavour=flavour, userspace=False).claimed("0009:01:00.0", "NVIDIA GH200 480GB", 0)
        s.driver_nodes([0], version="550.54.15")
        s.file("/usr/bin/nvidia-modprobe", "")
        lib = "/usr/lib/aarch64-linux-gnu"
        for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                             ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"), ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
            s.file(f"{lib}/{stem}.550.54.15", tiny_elf(soname, ["libc.so.6"], machine=183))
            s.link(f"{lib}/{soname}", f"{stem}.550.54.15")
        s.file(f"{lib}/libc.so.6", tiny_elf("libc.so.6", machine=183))
        s.directory("/lib/aarch64-linux-gnu")
        s.file("/usr/bin/nvidia-smi", "").env.setdefault("PATH", "/usr/local/bin:/usr/bin")
        s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", f"{lib}/libcuda.so.1"), ("libnvidia-ml.so.1", f"{lib}/libnvidia-ml.so.1"),
                                             ("libnvidia-ptxjitcompiler.so.1", f"{lib}/libnvidia-ptxjitcompiler.so.1"),
                                             ("libnvidia-nvvm.so.4", f"{lib}/libnvidia-nvvm.so.4")], flags=0x0a03))
        return s

    s = gh200_aarch64("host-healthy-gh200-aarch64", "A Grace Hopper GH200 server on aarch64 Ubuntu, the open module "
                      "550.54.15, as NVIDIA supports it.", "open")
    yield s.expect("ok", None, [], absent=["proprietary-module-on-grace-hopper"])
    s = gh200_aarch64("host-gh200-aarch64-proprietary-module", "The same GH200 under the proprietary module: it works, "
                      "but NVIDIA supports Grace Hopper with the open module only.", "proprietary")
    yield s.expect("warn", None, ["proprietary-module-on-grace-hopper"], absent=["proprietary-module-on-open-only-gpu"],
                   headline="proprietary-module-on-grace-hopper")

    s = Snapshot("gvisor-healthy", "A gVisor (runsc --nvproxy) container with a working GPU.")
    s.uname["release"] = "4.19.0-gvisor"
    s.modules = []
    s.directory("/sys/module").directory("/sys/bus/pci/devices")
    s.file("/proc/driver/nvidia/params", "ModifyDeviceFiles: 0\n")
    s.file("/.dockerenv", "").env["NVIDIA_VISIBLE_DEVICES"] = "all"
    s.device("/dev/nvidiactl", 195, 255, driver_version="550.90.12")
    s.device("/dev/nvidia0", 195, 0)
    s.device("/dev/nvidia-uvm", 234, 0)
    s.driver_userspace("550.90.12")
    yield s.expect("ok", None, [])

    s = Snapshot("garbage-input", "Junk everywhere: binary /proc files, bad sysfs ids, hostile environment values.")
    s.pci("0000:00:01.0", "1af4", "1000", "020000")
    s.file("/sys/bus/pci/devices/0000:00:01.0/vendor", "zzzz\x00\x01\n")
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="nvidia", width="x16", numa="lots")
    s.file("/sys/bus/pci/devices/0000:01:00.0/subsystem_device", "0x" + "f" * 4000 + "\n")
    s.file("/proc/driver/nvidia/version", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    s.file("/sys/module/nvidia/version", "not-a-version\n")
    s.file("/proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \x1b[31mred\nDevice Minor: -7\n")
    s.file("/proc/devices", "Character devices:\n195 nvidia\nabc nvidia-uvm\n99999999999999999999 nvidia-caps\n")
    s.modules = ["\x00\x01garbage", "nvidia 1 2 - Live 0x0 (POE)"]
    s.driver_nodes([0], version="\x01" * 80)
    s.env.update({"NVIDIA_VISIBLE_DEVICES": "\x01\x02," * 5000, "NVIDIA_DRIVER_CAPABILITIES": ",,,\t,all,zz"})
    s.file("/.dockerenv", "")
    yield s.expect("fail", "kernel-module",
                   ["hardware-input-unreadable", "kernel-module-input-unreadable", "nvidia-uvm-not-loaded", "device-nodes-input-unreadable", "libcuda-not-found",
                    "container-visible-devices-invalid", "container-driver-capability-invalid"], headline="nvidia-uvm-not-loaded")

    yield from gpu_operator_scenarios()
    yield from arch_scenarios()
    yield from hgx_b200_scenarios()


def gpu_operator_node(name, description, root_version="550.54.15", module_version="550.54.15", running=True, host_driver=False):
    """A Kubernetes node whose driver the GPU Operator runs in a container: the
    module is loaded from that container, whose root is bind-mounted at
    /run/nvidia/driver (gpu-driver-container's _mount_rootfs); the host has no
    driver files of its own (no libcuda, no nvidia-smi, no nvidia.ko)."""
    s = Snapshot(name, description).plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia" if module_version else "none")
    s.directory("/run/nvidia/driver")
    s.file("/lib/modules/" + s.uname["release"] + "/modules.dep", "kernel/fs/ext4/ext4.ko:\n")
    if module_version:
        s.nvidia_driver(module_version, userspace=host_driver, firmware=host_driver).claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
        s.driver_nodes([0], version=module_version)
    if running:
        operator_driver_root(s, root_version)
    return s


def operator_driver_root(s, version):
    """The running driver container's root, as gpu-driver-container mounts it
    at /run/nvidia/driver, with its pid file and the validator's ready files."""
    root = "/run/nvidia/driver"
    for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1")):
        s.file(f"{root}/usr/lib/x86_64-linux-gnu/{stem}.{version}", tiny_elf(soname, ["libc.so.6"]))
        s.link(f"{root}/usr/lib/x86_64-linux-gnu/{soname}", f"{stem}.{version}")
    s.file(f"{root}/usr/bin/nvidia-smi", "")
    s.file("/run/nvidia/nvidia-driver.pid", "4242\n")
    for ready in ("driver-ready", "toolkit-ready", "cuda-ready", "plugin-ready"):
        s.file(f"/run/nvidia/validations/{ready}", "")


def gpu_operator_scenarios():
    s = gpu_operator_node("host-gpu-operator-healthy", "A GPU Operator node: the driver container runs, its root at /run/nvidia/driver, every validation passed.")
    yield s.expect("ok", None, [], info=["gpu-operator-driver-container"])

    s = gpu_operator_node("host-gpu-operator-driver-down", "A GPU Operator node whose driver container never came up: no module, nothing under /run/nvidia/driver.",
                          module_version=None, running=False)
    yield s.expect("fail", "kernel-module", ["gpu-operator-driver-not-running", "nvidia-module-not-built-for-kernel", "libcuda-not-found"],
                   headline="gpu-operator-driver-not-running")

    # A node with the driver installed on the host: the operator detects it and runs no driver container
    # (nvidia.com/gpu.deploy.driver=pre-installed); the validator's hostPath leaves /run/nvidia/driver empty.
    s = gpu_operator_node("host-gpu-operator-preinstalled-driver", "A GPU Operator node whose driver is the host's own: "
                          "/run/nvidia/driver stays empty, the validations passed.", running=False, host_driver=True)
    for ready in ("driver-ready", "toolkit-ready", "cuda-ready", "plugin-ready"):
        s.file(f"/run/nvidia/validations/{ready}", "")
    yield s.expect("ok", None, [], info=["gpu-operator-preinstalled-driver"],
                   absent=["gpu-operator-driver-not-running", "gpu-operator-driver-container", "gpu-operator-driver-version-mismatch"])

    # gpu-operator#126: a driver installed on the host was loaded first; the
    # operator's container holds another release.
    s = gpu_operator_node("host-gpu-operator-host-driver-loaded", "A GPU Operator node with a host driver 535 loaded under the operator's 550 container.",
                          module_version="535.183.01", host_driver=True)
    yield s.expect("fail", "driver-libs", ["gpu-operator-driver-version-mismatch"], info=["gpu-operator-driver-container"],
                   headline="gpu-operator-driver-version-mismatch")


def arch_host(name, description, version="565.77", release="6.12.4-arch1-1", installed=("6.12.4-arch1-1",), loaded=True, uvm=True):
    """Arch Linux as its packages lay it out: /lib, /lib64 and /usr/lib64 lead to /usr/lib (the
    filesystem package's links); nvidia-utils puts the driver's libraries in /usr/lib, which
    ld.so.cache lists; nvidia-open-dkms builds nvidia.ko.zst into updates/dkms of each kernel
    in `installed`; pacman keeps only the installed kernels' /usr/lib/modules directories."""
    s = Snapshot(name, description).plain_vm_pci()
    s.uname.update({"release": release, "version": "#1 SMP PREEMPT_DYNAMIC Mon, 09 Dec 2024 14:31:57 +0000"})
    s.file("/etc/os-release", 'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n')
    for path, target in (("/lib", "usr/lib"), ("/lib64", "usr/lib"), ("/usr/lib64", "lib"), ("/bin", "usr/bin"), ("/sbin", "usr/bin"),
                         ("/usr/sbin", "bin")):
        s.link(path, target)
    s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nvidia" if loaded else None)
    if loaded:
        s.nvidia_driver(version, flavour="open", uvm=uvm, userspace=False, firmware=False).claimed("0000:01:00.0", "NVIDIA GeForce RTX 4090", 0)
        s.driver_nodes([0], uvm=uvm, version=version)
        s.device("/dev/nvidia-modeset", 195, 254)
    lib = "/usr/lib"
    for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                         ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"), ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
        s.file(f"{lib}/{stem}.{version}", tiny_elf(soname, ["libc.so.6"]))
        s.link(f"{lib}/{soname}", f"{stem}.{version}")
        s.link(f"{lib}/{stem}", soname)
    s.file(f"{lib}/libc.so.6", tiny_elf("libc.so.6"))
    s.file("/etc/ld.so.cache", ld_cache([(soname, f"{lib}/{soname}") for soname in
                                         ("libcuda.so.1", "libnvidia-ml.so.1", "libnvidia-ptxjitcompiler.so.1", "libnvidia-nvvm.so.4", "libc.so.6")]))
    s.file("/usr/bin/nvidia-smi", "").file("/usr/bin/nvidia-modprobe", "")
    s.env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/bin"
    for firmware in ("gsp_ga10x.bin", "gsp_tu10x.bin"):
        s.file(f"/usr/lib/firmware/nvidia/{version}/{firmware}", "\x7fELF GSP-RM firmware image\n")
    for kernel in installed:
        module = compressed_module({"version": version, "license": "Dual MIT/GPL", "srcversion": "A1B2C3D4E5F6A7B8C9D0E1F",
                                    "vermagic": f"{kernel} SMP preempt mod_unload "}, "zst")
        s.file(f"/usr/lib/modules/{kernel}/updates/dkms/nvidia.ko.zst", module)
        s.file(f"/usr/lib/modules/{kernel}/modules.dep", "updates/dkms/nvidia.ko.zst:\nupdates/dkms/nvidia-uvm.ko.zst: updates/dkms/nvidia.ko.zst\n")
    return s


def arch_scenarios():
    s = arch_host("host-arch-healthy", "Arch Linux with nvidia-open-dkms 565.77 on an RTX 4090: libraries in /usr/lib, the module as "
                  "nvidia.ko.zst, nvidia_uvm loaded on demand by nvidia-modprobe.", uvm=False)
    yield s.expect("ok", None, [], info=["nvidia-uvm-loads-on-demand"], absent=["running-kernel-modules-removed"])

    # pacman -Syu upgraded linux (6.12.3 -> 6.12.4) and removed 6.12.3's modules; no reboot since.
    s = arch_host("host-arch-upgraded-not-rebooted", "Arch after `pacman -Syu` without a reboot: the running 6.12.3 kernel's "
                  "/usr/lib/modules is gone, so nvidia_uvm, not loaded yet, can no longer be.", release="6.12.3-arch1-1", uvm=False)
    yield s.expect("fail", "kernel-module", ["running-kernel-modules-removed"], absent=["nvidia-uvm-loads-on-demand"],
                   headline="running-kernel-modules-removed")

    s = arch_host("host-arch-upgraded-nvidia-not-loaded", "Arch after a kernel upgrade without a reboot, nvidia not loaded yet "
                  "(a desktop that loads it late): modprobe finds no /usr/lib/modules for the running kernel.",
                  release="6.12.3-arch1-1", loaded=False)
    yield s.expect("fail", "kernel-module", ["running-kernel-modules-removed", "nvidia-module-not-loaded"],
                   headline="running-kernel-modules-removed")


def hgx_b200_host(name, description, fabric_manager=True, nvlsm=True, ib_umad=True, version="570.133.20"):
    """An HGX B200 server (fourth-generation NVSwitches): 8 B200s, and the baseboard's ConnectX-7
    bridge, whose two limited functions (LPF) carry SMDL=SW_MNG in their VPD (as a DGX B200's
    lspci -vvv shows) and whose two full functions do not. Fabric Manager reaches the NVSwitches
    through the LPFs with the NVLink Subnet Manager (nvlsm) and ib_umad."""
    s = Snapshot(name, description).plain_vm_pci()
    s.nvidia_driver(version, flavour="open")  # Blackwell runs on the open module only
    for index, bus in enumerate(["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]):
        bdf = f"0000:{bus}:00.0"
        s.pci(bdf, "10de", "2901", "030200", driver="nvidia", numa=str(index // 4), speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
        s.claimed(bdf, "NVIDIA B200", index)
    s.driver_nodes(range(8), version=version)
    for function, limited in (("0000:05:00.0", True), ("0000:05:00.1", False), ("0000:06:00.0", True), ("0000:06:00.1", False)):
        s.pci(function, "15b3", "1021", "020700", driver="mlx5_core", subsystem=("15b3", "0087"), width=2, max_width=2,
              speed="8.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
        smdl = ":SMDL=SW_MNG" if limited else ""
        s.file(f"/sys/bus/pci/devices/{function}/vpd", pci_vpd("Nvidia ConnectX-7 mezz internal for Nvidia Umbriel system", [
            ("PN", "692-9X760-00SE-S00"), ("EC", "A4"), ("SN", "MT2503603H5V"),
            ("VA", f"MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0{smdl}:MODL=C7010Z"), ("V0", "PCIeGen4 x2")]))
    s.loaded("mlx5_core", "mlx5_ib", "ib_core", *(["ib_umad"] if ib_umad else []))
    if ib_umad:
        s.directory("/sys/module/ib_umad")
    s.process(1, "systemd")
    if fabric_manager:  # nvidia-fabricmanager-570, its unit enabled
        s.file("/usr/bin/nv-fabricmanager", "").file("/usr/bin/nvidia-fabricmanager-start.sh", "#!/bin/bash\n")
        s.file("/usr/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n")
        s.link("/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service",
               "/usr/lib/systemd/system/nvidia-fabricmanager.service")
        if nvlsm and ib_umad:  # nvidia-fabricmanager-start.sh starts NVLSM first, or gives up
            s.process(3011, "nv-fabricmanage")
    if nvlsm:  # the nvlsm package
        s.file("/opt/nvidia/nvlsm/sbin/nvlsm", "").file("/usr/share/nvidia/nvlsm/nvlsm.conf", "log_file /var/log/nvlsm.log\n")
    return s


def hgx_b200_scenarios():
    s = hgx_b200_host("host-hgx-b200-healthy", "An HGX B200 server: Fabric Manager, the NVLink Subnet Manager and ib_umad in place.")
    yield s.expect("ok", None, [], absent=["fabric-manager-missing", "nvlink-subnet-manager-missing", "nvlink-fabric-ib-umad-not-loaded"])

    # NVML's own verdict on the fabric (R550+: nvmlGpuFabricInfo_v3_t): a healthy twin, then two GPUs it calls
    # unhealthy (a route) and limited (bandwidth); CUDA works on every GPU either way.
    healthy_mask = 2 | 2 << 2 | 2 << 4 | 2 << 6 | 1 << 8  # every flag false, the configuration fine

    def with_fabric(s, sick):
        buses = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]
        s.cuda_probe(devices=[cuda_device(i, b, name="NVIDIA B200") for i, b in enumerate(buses)],
                     mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.570.133.20")
        s.nvml_probe(driver="570.133.20", devices=[
            nvml_device(i, b, name="NVIDIA B200", compute_capability="10.0", fabric_state="completed",
                        **(sick.get(i) or {"fabric_health_summary": "healthy", "fabric_health_mask": healthy_mask}))
            for i, b in enumerate(buses)])
        return s

    # NVLink5 counts link recoveries (NVML field values 213-215, summed over the links) where the
    # per-link error counters answer no more: a successful one is said (info), a failed one warns,
    # and a GPU whose counters are all 0 is quiet.
    def with_recoveries(name, description, recoveries):
        sick = {i: {"nvlinks": 18, "nvlinks_inactive": [], "fabric_health_summary": "healthy", "fabric_health_mask": healthy_mask,
                    "nvlink_recoveries": recoveries if i == 5 else {"successful": 0, "failed": 0, "events": 0}} for i in range(8)}
        return with_fabric(hgx_b200_host(name, description), sick)

    s = with_recoveries("host-hgx-b200-nvlink-recoveries-counted", "An HGX B200 whose GPU 5 has retrained its NVLinks 12 times "
                        "since its counters were reset, each time successfully.", {"successful": 12, "failed": 0, "events": 12})
    yield s.expect("ok", None, [], info=["gpu-nvlink-recoveries-counted"], absent=["gpu-nvlink-recovery-failed"], action="none")

    s = with_recoveries("host-hgx-b200-nvlink-recovery-failed", "An HGX B200 whose GPU 5 has counted one NVLink recovery that "
                        "failed (and 3 that succeeded); its 18 links are up again.", {"successful": 3, "failed": 1, "events": 4})
    yield s.expect("warn", None, ["gpu-nvlink-recovery-failed"], info=["gpu-nvlink-recoveries-counted"],
                   headline="gpu-nvlink-recovery-failed", action="inspect-hardware")

    s = with_recoveries("host-hgx-b200-nvlink-recoveries-quiet", "An HGX B200 whose NVLink recovery counters are all 0: quiet.",
                        {"successful": 0, "failed": 0, "events": 0})
    yield s.expect("ok", None, [], absent=["gpu-nvlink-recoveries-counted", "gpu-nvlink-recovery-failed"], action="none")

    s = with_fabric(hgx_b200_host("host-hgx-b200-fabric-healthy", "An HGX B200 whose NVML calls every GPU's NVLink fabric healthy."), {})
    yield s.expect("ok", None, [], absent=["gpu-fabric-unhealthy", "gpu-fabric-not-ready"])

    s = with_fabric(hgx_b200_host("host-hgx-b200-fabric-unhealthy", "An HGX B200 whose NVML calls GPU 3's fabric unhealthy (a route) "
                                  "and GPU 5's limited (degraded bandwidth); CUDA works on all eight."),
                    {3: {"fabric_health_summary": "unhealthy", "fabric_health_mask": healthy_mask & ~(3 << 4) | 1 << 4},
                     5: {"fabric_health_summary": "limited-capacity", "fabric_health_mask": healthy_mask & ~3 | 1}})
    yield s.expect("warn", None, ["gpu-fabric-unhealthy"], absent=["gpu-fabric-not-ready"], headline="gpu-fabric-unhealthy",
                   action="inspect-hardware")

    s = hgx_b200_host("host-hgx-b200-no-nvlsm", "An HGX B200 set up as an HGX H100 was: Fabric Manager without nvlsm, so it "
                      "cannot start and cuInit answers 802.", nvlsm=False)
    s.cuda_probe(init=802, init_name="CUDA_ERROR_SYSTEM_NOT_READY", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.570.133.20")
    yield s.expect("fail", "driver-libs", ["nvlink-subnet-manager-missing", "fabric-manager-not-running", "cuda-init-system-not-ready"],
                   absent=["fabric-manager-missing"], headline="nvlink-subnet-manager-missing")

    s = hgx_b200_host("host-hgx-b200-ib-umad-not-loaded", "An HGX B200 whose ib_umad is not loaded (an image without the "
                      "InfiniBand modules at boot), told from files alone.", ib_umad=False)
    yield s.expect("fail", "driver-libs", ["nvlink-fabric-ib-umad-not-loaded", "fabric-manager-not-running"],
                   headline="nvlink-fabric-ib-umad-not-loaded")

    s = hgx_b200_host("host-hgx-b200-no-fabric-manager", "An HGX B200 with neither Fabric Manager nor nvlsm: no PCI NVSwitch "
                      "function, yet the bridge's VPD says the NVSwitches are there.", fabric_manager=False, nvlsm=False)
    yield s.expect("fail", "driver-libs", ["fabric-manager-missing", "nvlink-subnet-manager-missing"], headline="fabric-manager-missing")
