"""Node health as fleets judge it: Xids classified by NVIDIA's catalog, with
the action a fleet takes (model/action.h); each failing state beside a healthy
twin that stays quiet."""
from scenarios.snapshot import SMOKE_PASSED, Snapshot, cuda_device, h100_host, nvml_device

XID_48 = ("[ 9120.000001] NVRM: Xid (PCI:0000:1b:00): 48, pid=2244, name=python3, An uncorrectable double bit error "
          "(DBE) has been detected on GPU in the framebuffer at partition 3, subpartition 1.\n")


def scenarios():
    # The application's own faults (NVIDIA: RESTART_APP, the device plugin ignores
    # them): the GPU needs nothing, the verdict stays OK.
    s = h100_host("host-xid-13-application", "A healthy H100 whose kernel log shows an application's illegal address "
                  "(Xid 13) and the channel reset after it (Xid 43).")
    s.kernel_log("[ 812.100001] NVRM: Xid (PCI:0000:1b:00): 13, pid=4242, name=python3, Graphics SM Warp Exception on "
                 "(GPC 0, TPC 1, SM 0): Out Of Range Address\n"
                 "[ 812.100002] NVRM: Xid (PCI:0000:1b:00): 13, pid=4242, name=python3, Graphics Exception: ESR 0x504648=0x102000e\n"
                 "[ 812.100090] NVRM: Xid (PCI:0000:1b:00): 43, pid=4242, name=python3, Ch 00000008\n")
    yield s.expect("ok", None, [], info=["gpu-xid-no-action"], action="none")

    s = h100_host("host-xid-48-in-log", "A healthy-looking host whose kernel log shows a double-bit ECC error (Xid 48).")
    s.kernel_log(XID_48)
    yield s.expect("fail", "hardware", ["gpu-xid-needs-recovery"], headline="gpu-xid-needs-recovery", action="reset-gpu")

    # The same Xid as /dev/kmsg gives it, a file read without running dmesg: a record with the
    # device's dictionary lines, its bytes below space written \xNN (printk_ringbuffer's dev-kmsg ABI).
    s = h100_host("host-xid-48-from-kmsg", "Xid 48 in the kernel log as /dev/kmsg gives it; dmesg was never run.")
    s.kmsg("6,1021,4811000001,-;Linux version 6.1.0-18-amd64\n"
           "3,1022,9120000001,-;NVRM: Xid (PCI:0000:1b:00): 48, pid=2244, name=python3, An uncorrectable double bit error "
           "(DBE) has been detected on GPU in the framebuffer at partition 3, subpartition 1.\n"
           " SUBSYSTEM=pci\n DEVICE=+pci:0000:1b:00.0\n")
    yield s.expect("fail", "hardware", ["gpu-xid-needs-recovery"], headline="gpu-xid-needs-recovery", action="reset-gpu")

    s = h100_host("host-kmsg-healthy", "A healthy H100 whose /dev/kmsg holds the module's load lines and an escaped "
                  "control byte, nothing NVIDIA reports as an error.")
    s.kmsg("4,512,3100000001,-;nvidia: loading out-of-tree module taints kernel.\n"
           "6,513,3200000001,-;NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\\x09Thu Feb 22 01:44:30 UTC 2024\n"
           "6,514,3300000001,-;nvidia-uvm: Loaded the UVM driver, major device number 510.\n")
    yield s.expect("ok", None, [], absent=["gpu-xid-needs-recovery", "gpu-xid-no-action"], action="none")

    # The live outcome outranks the log: a kernel ran on the GPU since.
    s = h100_host("host-xid-48-smoke-works", "Xid 48 in the kernel log, and the smoke test's kernel runs on that GPU.")
    s.kernel_log(XID_48)
    s.cuda_probe(devices=[cuda_device()], smoke=SMOKE_PASSED)
    yield s.expect("warn", None, ["gpu-xid-needs-recovery"], options={"smoke": True}, headline="gpu-xid-needs-recovery",
                   action="reset-gpu")

    # Xid 154 carries the driver's own recovery action in its text (gpu.c, r590).
    s = h100_host("host-xid-154-drain-and-reset", "An NVLink5 NETIR link error (Xid 149), then the driver's recovery action "
                  "changed to Drain and Reset (Xid 154).")
    s.kernel_log("[171167.621100] NVRM: Xid (PCI:0000:1b:00): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 01 "
                 "(0x021425c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)\n"
                 "[171167.621162] NVRM: Xid (PCI:0000:1b:00): 154, GPU recovery action changed from 0x0 (None) to 0x4 "
                 "(Drain and Reset)\n")
    yield s.expect("fail", "hardware", ["gpu-xid-needs-recovery"], headline="gpu-xid-needs-recovery", action="drain-and-reset")

    # NVLink5's non-fatal events (the driver writes "Nonfatal"): NVIDIA's decode ignores them, so a busy healthy
    # fabric's bit-error-rate and RLW events ask for nothing (the false fatals NVSentinel's users reported).
    s = h100_host("host-nvlink5-nonfatal-healthy", "NVLink5 events the driver marks Nonfatal (Xid 145 RLW_SRC_TRACK and "
                  "Xid 149 NETIR_BER_EVENT, one naming the job's process), and nothing else: a healthy GPU.")
    s.kernel_log("[ 5120.100001] NVRM: Xid (PCI:0000:1b:00): 145, pid=876767, name=ray::WorkerDict, RLW_SRC_TRACK Nonfatal "
                 "XC1 i0 Link 12 (0x040988e2 0x00000008 0x00000000 0x00000000 0x00000000 0x00000000)\n"
                 "[ 5300.200001] NVRM: Xid (PCI:0000:1b:00): 149, NETIR_BER_EVENT Nonfatal XC0 i0 Link 03 "
                 "(0x00086226 0x00000001 0x00000000 0x00000000 0x00000000 0x00000000)\n")
    yield s.expect("ok", None, [], info=["gpu-xid-no-action"], action="none", absent=["gpu-xid-needs-recovery"])

    # The driver says the recovery is done: its newest Xid 154 changed the action back to None.
    s = h100_host("host-xid-154-recovered", "Xid 48, then Xid 154 asked for a GPU reset, and a later Xid 154 changed the "
                  "action back to None: the GPU was reset.")
    s.kernel_log(XID_48 + "[ 9200.000001] NVRM: Xid (PCI:0000:1b:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 "
                 "(GPU Reset Required)\n"
                 "[ 9900.000001] NVRM: Xid (PCI:0000:1b:00): 154, GPU recovery action changed from 0x1 (GPU Reset Required) "
                 "to 0x0 (None)\n")
    yield s.expect("ok", None, [], info=["gpu-xid-no-action", "gpu-xid-recovered"], action="none")

    # NVML's live recovery action outranks the log: the driver says the GPU needs nothing now.
    s = h100_host("host-xid-48-nvml-says-recovered", "Xid 48 earlier in this boot; NVML's recovery action for the GPU is None "
                  "now (it was reset since).")
    s.kernel_log(XID_48)
    s.nvml_probe(devices=[nvml_device(recovery_action=0)])
    yield s.expect("ok", None, [], info=["gpu-xid-recovered"], action="none")

    # A display event NVIDIA asks support for, with no recovery of the GPU: a warning, not a failure.
    s = h100_host("host-xid-display-event", "Xid 56 (a display engine error) after a monitor was unplugged.")
    s.kernel_log("[ 4410.000001] NVRM: Xid (PCI:0000:1b:00): 56, pid=1290, name=Xorg, CMDre 00000000 00000080 00000000 00000005 00000008\n")
    yield s.expect("warn", None, ["gpu-xid-contact-support"], headline="gpu-xid-contact-support", action="inspect-hardware")

    # A flood: thousands of lines of one code on two GPUs are two findings, counted.
    s = h100_host("host-xid-94-flood", "Two GPUs log 3,000 contained ECC errors (Xid 94) between them.")
    s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
    s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
    s.kernel_log("".join(f"[{1000 + i}.000001] NVRM: Xid (PCI:0000:{'1b' if i % 3 else '2a'}:00): 94, pid={5000 + i}, "
                         f"name=python3, Contained: SM (0x1). RST: No, D-RST: No\n" for i in range(3000)))
    yield s.expect("warn", None, ["gpu-xid-workload-hurt"], headline="gpu-xid-workload-hurt", action="restart-workload")

    s = h100_host("host-xid-not-in-catalog", "A newer driver's Xid 175, which the catalog gpudoctor carries does not list.")
    s.kernel_log("[  77.000001] NVRM: Xid (PCI:0000:1b:00): 175, pid=99, name=python3, Unknown event\n")
    yield s.expect("warn", None, ["gpu-xid-not-in-catalog"], headline="gpu-xid-not-in-catalog", action="inspect-hardware")

    # The operator's count (--expect gpus=N): a GPU gone from the bus leaves no Xid.
    s = h100_host("host-gpu-missing-no-xid", "The machine should have two H100s (--expect gpus=2); one is gone from the "
                  "PCI bus, and no log line says so.")
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("fail", "hardware", ["gpu-count-below-expected"], options={"expect_gpus": 2},
                   headline="gpu-count-below-expected", action="inspect-hardware")

    s = h100_host("host-gpu-count-as-expected", "The two H100s this machine should have (--expect gpus=2), seen by NVML and CUDA.")
    s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
    s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
    s.nvml_probe(devices=[nvml_device(), nvml_device(1, bus="2A")])
    s.cuda_probe(devices=[cuda_device(), cuda_device(1, bus="2A")])
    yield s.expect("ok", None, [], options={"expect_gpus": 2}, action="none")

    s = h100_host("host-nvml-missing-gpu", "Both H100s are on the PCI bus and claimed (--expect gpus=2), but NVML and CUDA "
                  "see only one; nothing in the log says why.")
    s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
    s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
    s.nvml_probe(devices=[nvml_device()])
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("fail", "driver-libs", ["nvml-count-below-expected"], options={"expect_gpus": 2},
                   headline="nvml-count-below-expected", action="reboot-node")

    # What NVML says of each GPU now: the driver's recovery action, pending modes,
    # throttling by the hardware, firmware that differs from its peers'.
    s = h100_host("host-gpu-recovery-action-reset", "NVML's GPU recovery action for the H100 is GPU_RESET (after an "
                  "uncontained error).")
    s.nvml_probe(devices=[nvml_device(recovery_action=1)])
    yield s.expect("fail", "hardware", ["gpu-recovery-action-required"], headline="gpu-recovery-action-required", action="reset-gpu")

    s = h100_host("host-gpu-ecc-pending", "ECC was turned off on the H100 (nvidia-smi -e 0), and the GPU was not reset since.")
    s.nvml_probe(devices=[nvml_device(ecc_mode_pending="Disabled")])
    yield s.expect("warn", None, ["gpu-mode-change-pending"], headline="gpu-mode-change-pending", action="reset-gpu")

    s = h100_host("host-gpu-thermal-slowdown", "The H100 slows its clocks for heat (HW thermal slowdown) at 92 °C.")
    s.nvml_probe(devices=[nvml_device(throttle_reasons=["hw-thermal-slowdown"], temperature_c=92)])
    yield s.expect("warn", None, ["gpu-throttled-by-hardware"], headline="gpu-throttled-by-hardware", action="inspect-hardware")

    # Its healthy twin: a busy GPU at its software power cap is doing what it should.
    s = h100_host("host-gpu-at-power-cap", "A busy H100 held at its power limit (the software power cap): normal under load.")
    s.nvml_probe(devices=[nvml_device(throttle_reasons=["sw-power-cap"], utilization_percent=100, power_draw_w=699.0)])
    yield s.expect("ok", None, [], action="none")

    # The margin to T.Limit (nvmlDeviceGetMarginTemperature): close to it before any slowdown; its healthy twins, a busy
    # GPU with room to spare and a driver that answers 0 where it cannot tell.
    s = h100_host("host-gpu-thermal-margin-low", "A busy H100 3 degrees C from the temperature at which it slows itself down.")
    s.nvml_probe(devices=[nvml_device(thermal_margin_c=3, temperature_c=84, utilization_percent=100, power_draw_w=650.0)])
    yield s.expect("warn", None, ["gpu-thermal-margin-low"], absent=["gpu-throttled-by-hardware"], headline="gpu-thermal-margin-low",
                   action="inspect-hardware")

    s = h100_host("host-gpu-thermal-margin-healthy", "A busy H100 with 24 degrees C to spare before it would slow itself down.")
    s.nvml_probe(devices=[nvml_device(thermal_margin_c=24, temperature_c=63, utilization_percent=100, power_draw_w=650.0)])
    yield s.expect("ok", None, [], absent=["gpu-thermal-margin-low"], action="none")

    s = h100_host("host-gpu-thermal-margin-not-said", "An H100 whose driver answers a margin of 0: it cannot tell, as gpud reads it.")
    s.nvml_probe(devices=[nvml_device(thermal_margin_c=0)])
    yield s.expect("ok", None, [], absent=["gpu-thermal-margin-low"], action="none")

    three = [("1b", "96.00.99.00.01"), ("2a", "96.00.99.00.01"), ("3c", "96.00.74.00.0c")]
    s = h100_host("host-gpu-vbios-differs", "Three H100s, one of them a replacement with an older VBIOS.")
    for index, (bus, _) in enumerate(three[1:], start=1):
        s.pci(f"0000:{bus}:00.0", "10de", "2330", "030200", driver="nvidia")
        s.claimed(f"0000:{bus}:00.0", "NVIDIA H100 80GB HBM3", index)
    s.driver_nodes([0, 1, 2], version="550.54.15")
    s.nvml_probe(devices=[nvml_device(index, bus.upper(), vbios=vbios) for index, (bus, vbios) in enumerate(three)])
    yield s.expect("warn", None, ["gpu-vbios-differs"], headline="gpu-vbios-differs", action="fix-configuration")

    # NVLink: a GPU with links down that its peers have up. Its twin: PCIe H100s
    # with no NVLink, whose NVML answers for no link, say nothing of links.
    s = h100_host("host-nvlink-link-down", "Two NVLink H100s; one has lost two of its 18 links.")
    s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
    s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
    s.nvml_probe(devices=[nvml_device(0, nvlinks=18, nvlinks_inactive=[],
                                      nvlink_errors={"replay": 0, "recovery": 0, "crc_flit": 0, "crc_data": 0}),
                          nvml_device(1, "2A", nvlinks=18, nvlinks_inactive=[4, 5],
                                      nvlink_errors={"replay": 812, "recovery": 3, "crc_flit": 4411, "crc_data": 0})])
    yield s.expect("warn", None, ["gpu-nvlink-links-down"], info=["gpu-nvlink-errors-counted"], headline="gpu-nvlink-links-down",
                   action="reset-gpu")

    # NVLink error counters: a total since the last reset says nothing of a
    # rate, so replays or recoveries are said (info) and change no verdict;
    # CRC errors alone, which DCGM only warns of under 100 a second, are quiet.
    def nvlinked_with_errors(name, description, errors):
        s = h100_host(name, description)
        s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
        s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
        s.nvml_probe(devices=[nvml_device(0, nvlinks=18, nvlinks_inactive=[],
                                          nvlink_errors={"replay": 0, "recovery": 0, "crc_flit": 0, "crc_data": 0}),
                              nvml_device(1, "2A", nvlinks=18, nvlinks_inactive=[], nvlink_errors=errors)])
        return s

    s = nvlinked_with_errors("host-nvlink-errors-counted", "Two NVLink H100s, every link up; the second has counted 40 "
                             "replays and 2 recoveries since its counters were reset.",
                             {"replay": 40, "recovery": 2, "crc_flit": 310, "crc_data": 0})
    yield s.expect("ok", None, [], info=["gpu-nvlink-errors-counted"], action="none")

    s = nvlinked_with_errors("host-nvlink-crc-only-quiet", "Two NVLink H100s, every link up; the second has counted CRC "
                             "errors only, which DCGM's health watch only warns of under 100 a second: quiet.",
                             {"replay": 0, "recovery": 0, "crc_flit": 1200, "crc_data": 3})
    yield s.expect("ok", None, [], absent=["gpu-nvlink-errors-counted"], action="none")

    # NVLink peer-to-peer as NVML answers it (what vLLM's custom all-reduce and
    # DeepEP ask): links up, yet no peer reachable over them. Its twins: the
    # same GPUs reaching each other, and one of them in MIG mode, which has no
    # peer-to-peer by design (an allocation, not a fault).
    def nvlinked_pair(name, description, status, mig=False):
        s = h100_host(name, description)
        s.pci("0000:2a:00.0", "10de", "2330", "030200", driver="nvidia")
        s.claimed("0000:2a:00.0", "NVIDIA H100 80GB HBM3", 1).driver_nodes([0, 1], version="550.54.15")
        s.nvml_probe(devices=[nvml_device(0, nvlinks=18, nvlinks_inactive=[]),
                              nvml_device(1, "2A", nvlinks=18, nvlinks_inactive=[], **({"mig_mode": 1} if mig else {}))],
                     p2p=[[0, 1, status]])
        return s

    s = nvlinked_pair("host-nvlink-p2p-unreachable", "Two NVLink H100s, all 18 links up on each, but NVML says NVLink "
                      "peer-to-peer between them is disabled by a registry key.", 4)
    yield s.expect("warn", None, ["gpu-nvlink-p2p-unreachable"], headline="gpu-nvlink-p2p-unreachable", action="inspect-hardware")

    s = nvlinked_pair("host-nvlink-p2p-healthy", "Two NVLink H100s reaching each other over NVLink: quiet.", 0)
    yield s.expect("ok", None, [], absent=["gpu-nvlink-p2p-unreachable"], action="none")

    s = nvlinked_pair("host-nvlink-p2p-mig", "Two NVLink H100s, the second in MIG mode, where NVML answers no NVLink "
                      "peer-to-peer: MIG has none by design, so quiet.", 5, mig=True)
    yield s.expect("ok", None, [], absent=["gpu-nvlink-p2p-unreachable"], action="none")

    s = h100_host("host-pcie-gpus-no-nvlink", "Two H100 PCIe cards without NVLink bridges: NVML answers for no link.")
    s.pci("0000:2a:00.0", "10de", "2331", "030200", driver="nvidia")
    s.claimed("0000:2a:00.0", "NVIDIA H100 PCIe", 1).driver_nodes([0, 1], version="550.54.15")
    s.nvml_probe(devices=[nvml_device(0, name="NVIDIA H100 PCIe"), nvml_device(1, "2A", name="NVIDIA H100 PCIe")])
    yield s.expect("ok", None, [], action="none")

    # Past the caps: each said as such (info), never a failure of its own.
    s = h100_host("host-roce-many-virtual-functions", "A ConnectX-7 with 72 SR-IOV virtual functions for VMs, each an RDMA "
                  "device with one RoCE port: more ports than gpudoctor reads.")
    for vf in range(72):
        s.ib_port(f"mlx5_{vf}", 1, rate="200 Gb/sec (4X HDR)", link_layer="Ethernet")
    yield s.expect("ok", None, [], info=["ib-ports-cut"], action="none")

    s = h100_host("host-busy-node-processes-cut", "A login node with 8,300 processes: more than gpudoctor reads from /proc.")
    for pid in range(1, 8301):
        s.process(pid, "systemd" if pid == 1 else "bash")
    yield s.expect("ok", None, [], info=["process-scan-cut"], action="none")

    # InfiniBand: the rails a multi-node job rides on, against the operator's count.
    s = h100_host("host-ib-rails-as-expected", "Two NDR ports active, as the operator expects (--expect ib-ports=2); a third, "
                  "unused, is disabled.")
    s.ib_port("mlx5_0", 1).ib_port("mlx5_1", 1).ib_port("mlx5_2", 1, state="1: DOWN", phys_state="3: Disabled")
    yield s.expect("ok", None, [], options={"expect_ib_ports": 2}, action="none")

    s = h100_host("host-ib-rail-down", "One of the two NDR ports the operator expects has no link (Polling): a cable or "
                  "switch port.")
    s.ib_port("mlx5_0", 1).ib_port("mlx5_1", 1, state="1: DOWN", phys_state="2: Polling")
    yield s.expect("fail", "hardware", ["ib-ports-below-expected"], options={"expect_ib_ports": 2},
                   headline="ib-ports-below-expected", action="inspect-hardware")

    s = h100_host("host-ib-port-init", "An InfiniBand port physically up but INIT: no subnet manager activated it.")
    s.ib_port("mlx5_0", 1, state="2: INIT")
    yield s.expect("warn", None, ["ib-port-not-active"], headline="ib-port-not-active", action="fix-configuration")

    # The ConnectX adapters' own kernel lines (mlx5_core), as gpud's InfiniBand matchers read them.
    s = h100_host("host-nic-underpowered-and-hot", "A ConnectX-7 says its slot gives it too little power, and one of its "
                  "transceivers overheats; nvidia-peermem logged an invalid context on a job's teardown.")
    s.ib_port("mlx5_0", 1)
    s.kernel_log("[ 14.201] mlx5_core 0000:5c:00.0: mlx5_pcie_event:299:(pid 268269): Detected insufficient power on the PCIe slot (27W).\n"
                 "[ 900.1] mlx5_core 0000:5c:00.0: mlx5_port_module_event:1131:(pid 0): Port module event[error]: module 0, Cable error, High Temperature\n"
                 "[ 901.7] nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing\n")
    yield s.expect("warn", None, ["nic-insufficient-slot-power", "nic-module-overheating"], info=["peermem-invalid-context"],
                   headline="nic-insufficient-slot-power", action="inspect-hardware")

    s = h100_host("host-nic-kernel-lines-healthy", "A ConnectX-7's ordinary kernel lines (link up, a module plugged in) and "
                  "its port's counters at zero, as after a clean boot: quiet.")
    s.ib_port("mlx5_0", 1, link_downed=0, link_error_recovery=0)
    s.kernel_log("[ 14.201] mlx5_core 0000:5c:00.0: firmware version: 28.39.1002\n"
                 "[ 15.001] mlx5_core 0000:5c:00.0: Port module event: module 0, Cable plugged\n"
                 "[ 16.002] mlx5_core 0000:5c:00.0 ibp92s0: Link up\n")
    yield s.expect("ok", None, [], action="none", absent=["nic-insufficient-slot-power", "nic-module-overheating", "peermem-invalid-context",
                                                          "ib-port-link-went-down"])

    # A link's own count of going down (counters/link_downed), as NVSentinel's NIC monitor and gpud read it: a
    # one-shot check cannot see it grow, so it says how often and leaves the verdict alone.
    s = h100_host("host-ib-link-went-down", "One of two InfiniBand ports went down 7 times since the driver loaded "
                  "(and recovered from link errors twice); it is ACTIVE again: a link that flaps, or a switch's maintenance.")
    s.ib_port("mlx5_0", 1, link_downed=0, link_error_recovery=0)
    s.ib_port("mlx5_1", 1, link_downed=7, link_error_recovery=2)
    yield s.expect("ok", None, [], info=["ib-port-link-went-down"], action="none")

    # CUDA's debugging variables, as DCGM's diagnostic and gpud flag them (DCGM_FR_BAD_CUDA_ENV): only where the value turns them on.
    s = h100_host("host-cuda-debug-variables-left-on", "A node's profile exports CUDA_LAUNCH_BLOCKING=1 and "
                  "CUDA_DEVICE_WAITS_ON_EXCEPTION=1 from a debugging session, Nsight Systems' injection library and GPU "
                  "core dumps: every job here runs serialised, and one with a bad kernel hangs.")
    s.env.update({"CUDA_LAUNCH_BLOCKING": "1", "CUDA_DEVICE_WAITS_ON_EXCEPTION": "1",
                  "CUDA_INJECTION64_PATH": "/opt/nvidia/nsight-systems/2025.1.1/target-linux-x64/libToolsInjection64.so",
                  "CUDA_ENABLE_COREDUMP_ON_EXCEPTION": "1"})
    yield s.expect("warn", None, ["cuda-launch-blocking-on", "cuda-waits-on-exception-on", "cuda-injection-library-set"],
                   info=["cuda-debug-variable-set"], headline="cuda-launch-blocking-on", action="check-application")

    s = h100_host("host-cuda-debug-variables-off", "The same variables set to their defaults (0, an empty path): nothing "
                  "is turned on, nothing is said.")
    s.env.update({"CUDA_LAUNCH_BLOCKING": "0", "CUDA_DEVICE_WAITS_ON_EXCEPTION": "false", "CUDA_INJECTION64_PATH": "",
                  "CUDA_AUTO_BOOST": "0"})
    yield s.expect("ok", None, [], absent=["cuda-launch-blocking-on", "cuda-waits-on-exception-on", "cuda-injection-library-set",
                                           "cuda-debug-variable-set"], action="none")

    # Persistence mode: fleets (gpud, aznhc, awsome) want it on data-centre GPUs; a desktop's GPU is kept up by its display.
    s = h100_host("host-persistence-mode-off", "An H100 node where nvidia-persistenced is not running: NVML reports "
                  "persistence mode Disabled.")
    s.nvml_probe(devices=[nvml_device(0, persistence_mode="Disabled")])
    yield s.expect("warn", None, ["gpu-persistence-mode-off"], headline="gpu-persistence-mode-off", action="fix-configuration")

    def desktop_4090(name, description, **nvml):
        """A desktop's RTX 4090 on the open driver, without persistence mode, as desktops run."""
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nvidia", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
        s.nvidia_driver("560.35.03", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 4090", 0)
        s.driver_nodes([0], version="560.35.03")
        s.nvml_probe(driver="560.35.03", cuda=12060, devices=[nvml_device(0, bus="01", name="NVIDIA GeForce RTX 4090", persistence_mode="Disabled",
                                          compute_capability="8.9", memory_total_mib=24564, vbios="95.02.18.80.5F", **nvml)])
        return s

    s = desktop_4090("host-geforce-persistence-off-healthy", "A desktop's RTX 4090 without persistence mode, as desktops "
                     "run: the display keeps the driver up, nothing is said.")
    yield s.expect("ok", None, [], absent=["gpu-persistence-mode-off"], action="none")

    # A GeForce's boost rides its temperature target, a few degrees under T.Limit, by design: nothing is said.
    s = desktop_4090("host-geforce-thermal-margin-healthy", "A desktop's RTX 4090 under load 4 degrees C from T.Limit, where its "
                     "boost holds it by design.", thermal_margin_c=4, temperature_c=83, utilization_percent=99, power_draw_w=440.0,
                     power_limit_w=450.0)
    yield s.expect("ok", None, [], absent=["gpu-thermal-margin-low"], action="none")
