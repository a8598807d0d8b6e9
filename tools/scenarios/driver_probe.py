"""What the driver answers a program: the driver probe in a child (cuInit,
NVML, --smoke), and the GPU's own health."""

from scenarios.binaries import *  # noqa: F401,F403
from scenarios.snapshot import *  # noqa: F401,F403


def scenarios():
    # What the driver answers a program (the driver probe, in a child).
    s = Snapshot("vm-pci-hidden-cuda-works", "A VM whose hypervisor hides the GPU's PCI function, while the driver's libcuda works.")
    s.plain_vm_pci().driver_userspace("550.54.15")
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [], info=["gpu-hidden-from-pci-view", "libcuda-unversioned-missing"], absent=["no-nvidia-gpu"])

    s = h100_host("host-cuinit-999-after-resume", "Every file looks right, yet cuInit returns 999 (as after a suspend and resume).")
    yield s.cuda_probe(init=999, init_name="CUDA_ERROR_UNKNOWN").expect("fail", "driver-libs", ["cuda-init-unknown-error"], headline="cuda-init-unknown-error")

    # A vGPU (GRID) guest: the guest driver, nvidia-gridd and its configuration; CUDA runs once licensed.
    def vgpu_guest(name, description):
        s = h100_host(name, description, version="550.54.16")
        s.file("/usr/bin/nvidia-gridd", "")
        s.file("/etc/nvidia/gridd.conf", "FeatureType=1\n")
        s.file("/etc/nvidia/ClientConfigToken/client_configuration_token.tok", "")
        return s

    s = vgpu_guest("vgpu-guest-licensed", "A vGPU guest (GRID guest driver 550.54.16) whose nvidia-gridd holds a license: cuInit succeeds.")
    yield s.cuda_probe(devices=[cuda_device()], mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.16").expect(
        "ok", None, [], info=["vgpu-guest"], absent=["cuda-init-device-not-licensed"])

    s = vgpu_guest("vgpu-guest-unlicensed", "A vGPU guest whose nvidia-gridd never obtained a license (the token is empty, the "
                   "license server unreachable): cuInit answers CUDA_ERROR_DEVICE_NOT_LICENSED.")
    yield s.cuda_probe(init=102, init_name="CUDA_ERROR_DEVICE_NOT_LICENSED", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.16").expect(
        "fail", "driver-libs", ["cuda-init-device-not-licensed"], info=["vgpu-guest"], headline="cuda-init-device-not-licensed")

    s = h100_host("host-cuinit-os-error", "cuInit fails with CUDA_ERROR_OPERATING_SYSTEM (304).")
    yield s.cuda_probe(init=304, init_name="CUDA_ERROR_OPERATING_SYSTEM").expect("fail", "driver-libs", ["cuda-init-failed"], headline="cuda-init-failed")

    s = h100_host("host-cuinit-no-devices-unexplained", "cuInit succeeds, then cuDeviceGetCount answers 0 while every file shows "
                  "a healthy H100: a live failure that no rule predicts, reported as such, never as OK.")
    yield s.cuda_probe(devices=[]).expect("fail", "driver-libs", ["cuda-live-failure-unexplained"], headline="cuda-live-failure-unexplained")

    # Compute modes (nvidia-smi -c): Exclusive_Process allows one context per GPU, from one process.
    s = h100_host("host-gpu-exclusive-busy", "The GPU is in compute mode Exclusive_Process and a python3 (pid 4242) already holds "
                  "a context: cuInit succeeds, every new context is refused with error 46.")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(compute_mode="Exclusive_Process", processes=1, memory_used_mib=30012,
                                      process_list=[{"pid": 4242, "name": "python3", "used_mib": 30012}])])
    yield s.expect("fail", "driver-libs", ["gpu-compute-mode-exclusive-busy"], headline="gpu-compute-mode-exclusive-busy")

    s = h100_host("host-gpu-exclusive-busy-smoke-passed", "Exclusive_Process with a context held, yet the smoke test ran a kernel "
                  "(the holder has gone since NVML was asked): the live outcome outranks the prediction, a warning remains.")
    s.cuda_probe(devices=[cuda_device()], smoke=SMOKE_PASSED)
    s.nvml_probe(devices=[nvml_device(compute_mode="Exclusive_Process", processes=1,
                                      process_list=[{"pid": 4242, "name": "python3", "used_mib": 30012}])])
    yield s.expect("warn", None, ["gpu-compute-mode-exclusive-busy"], options={"smoke": True}, headline="gpu-compute-mode-exclusive-busy")

    s = h100_host("host-gpu-exclusive-mps", "Exclusive_Process held by the MPS server, whose control pipe this process reaches: "
                  "CUDA programs share the GPU through MPS, as the mode is meant for (healthy).")
    s.file("/tmp/nvidia-mps/control", "")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(compute_mode="Exclusive_Process", processes=1,
                                      process_list=[{"pid": 3100, "name": "nvidia-cuda-mps-server", "used_mib": 420}])])
    yield s.expect("ok", None, [], info=["libcuda-unversioned-missing"], absent=["gpu-compute-mode-exclusive-busy"])

    s = h100_host("host-gpu-exclusive-idle", "Exclusive_Process with no process on the GPU: the next program gets it (healthy).")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(compute_mode="Exclusive_Process", processes=0)])
    yield s.expect("ok", None, [], info=["libcuda-unversioned-missing"], absent=["gpu-compute-mode-exclusive-busy"])

    # The same from nvidia-smi alone (the static build, --no-probe): where a
    # GPU is Exclusive, its compute processes are asked (--query-compute-apps).
    exclusive_line = ("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, "
                      "81559, 30012, Disabled, Enabled, Exclusive_Process\n")
    apps = ["/usr/bin/nvidia-smi", "--query-compute-apps=gpu_bus_id,pid,process_name,used_memory", "--format=csv,noheader,nounits"]
    s = h100_host("host-gpu-exclusive-busy-smi", "Exclusive_Process with a python3 holding a context, seen by nvidia-smi alone "
                  "(a static build or --no-probe asks no NVML): every new context is refused with error 46.")
    s.smi(exclusive_line).smi_version("550.54.15", "550.54.15", "12.4")
    s.children.append({"kind": "command", "args": apps, "exit": 0, "stdout": "00000000:1B:00.0, 4242, /usr/bin/python3, 30012\n",
                       "stderr": "", "timed_out": False})
    yield s.expect("fail", "driver-libs", ["gpu-compute-mode-exclusive-busy-smi"], info=["gpu-compute-mode-exclusive"],
                   options={"no_probe": True}, headline="gpu-compute-mode-exclusive-busy-smi")

    s = h100_host("host-gpu-exclusive-idle-smi", "Exclusive_Process with no compute process, seen by nvidia-smi alone (healthy).")
    s.smi(exclusive_line.replace("30012, Disabled", "0, Disabled")).smi_version("550.54.15", "550.54.15", "12.4")
    s.children.append({"kind": "command", "args": apps, "exit": 0, "stdout": "", "stderr": "", "timed_out": False})
    yield s.expect("ok", None, [], info=["gpu-compute-mode-exclusive"], options={"no_probe": True},
                   absent=["gpu-compute-mode-exclusive-busy-smi"])

    s = h100_host("host-gpu-memory-held-without-process", "NVML: 61 GiB of the GPU's memory are used and no process is "
                  "listed on it (a training run killed while its parent, a shell stuck in D state, never reaped it).")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(memory_used_mib=62514, processes=0, process_list=[])])
    yield s.expect("warn", None, ["gpu-memory-held-without-process"], headline="gpu-memory-held-without-process")

    s = h100_host("host-gpu-memory-held-by-process", "NVML: 30 GiB used by the python3 that holds them (healthy).")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(memory_used_mib=30600, processes=1,
                                      process_list=[{"pid": 4242, "name": "python3", "used_mib": 30012}])])
    yield s.expect("ok", None, [], info=["libcuda-unversioned-missing"], absent=["gpu-memory-held-without-process"])

    hung_log = ("[ 7311.402] INFO: task python3:4242 blocked for more than 120 seconds.\n"
                "[ 7311.402]       Tainted: P           OE      6.8.0-45-generic #45-Ubuntu\n"
                "[ 7311.402] task:python3         state:D stack:0     pid:4242  ppid:4100   flags:0x00004006\n"
                "[ 7311.402] Call Trace:\n"
                "[ 7311.402]  <TASK>\n"
                "[ 7311.402]  __schedule+0x27c/0x6b0\n"
                "[ 7311.402]  schedule+0x33/0x110\n"
                "[ 7311.402]  uvm_va_space_destroy+0x1a4/0x3c0 [nvidia_uvm]\n"
                "[ 7311.402]  uvm_release+0x6f/0x90 [nvidia_uvm]\n"
                "[ 7311.402]  __fput+0xff/0x2c0\n"
                "[ 7311.402]  </TASK>\n")
    s = h100_host("host-process-hung-in-driver", "A training process is stuck in D state in nvidia-uvm after an Xid; "
                  "the kernel's hung-task detector reported it blocked for more than 120 s (it cannot be killed).")
    s.cuda_probe(devices=[cuda_device()])
    s.proc_stat(1, "systemd").proc_stat(4100, "bash", parent=1)
    s.proc_stat(4242, "python3", "D", parent=4100, fds=["/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm"],
                wchan="uvm_va_space_destroy")
    s.kernel_log(hung_log)
    yield s.expect("fail", "kernel-module", ["process-hung-in-driver", "kernel-log-task-hung-in-driver"],
                   headline="process-hung-in-driver", absent=["process-uninterruptible-in-driver"])

    s = h100_host("host-process-uninterruptible-in-driver", "nvidia-smi is in D state in the driver, twice in a row, "
                  "but the kernel has not reported it hung: a warning to look again, no action.")
    s.cuda_probe(devices=[cuda_device()])
    s.proc_stat(1, "systemd").proc_stat(5100, "nvidia-smi", "D", fds=["/dev/nvidiactl"], wchan="os_acquire_mutex")
    yield s.expect("warn", None, ["process-uninterruptible-in-driver"], headline="process-uninterruptible-in-driver",
                   absent=["process-hung-in-driver"])

    s = h100_host("host-processes-healthy", "A busy node, healthy: a GPU process sleeping with the nodes open, an rsync in "
                  "D state on NFS, and a hung-task report of kcompactd (not the driver's) in the log.")
    s.cuda_probe(devices=[cuda_device()])
    s.proc_stat(1, "systemd").proc_stat(4242, "python3", "S", fds=["/dev/nvidiactl", "/dev/nvidia0"], wchan="do_select")
    s.proc_stat(4300, "rsync", "D", fds=["/srv/data/x"], wchan="nfs_wait_on_request")
    s.kernel_log("[ 900.1] INFO: task kcompactd0:77 blocked for more than 120 seconds.\n"
                 "[ 900.1]  __schedule+0x27c/0x6b0\n[ 900.1]  </TASK>\n")
    yield s.expect("ok", None, [], info=["libcuda-unversioned-missing"],
                   absent=["process-hung-in-driver", "process-uninterruptible-in-driver", "kernel-log-task-hung-in-driver"])

    s = h100_host("host-task-hung-in-driver-earlier", "The kernel reported a task hung in the driver earlier in this boot; "
                  "it is gone now and CUDA starts: a warning, nothing to do now.")
    s.cuda_probe(devices=[cuda_device()])
    s.proc_stat(1, "systemd")
    s.kernel_log(hung_log)
    yield s.expect("warn", None, ["kernel-log-task-hung-in-driver"], headline="kernel-log-task-hung-in-driver",
                   absent=["process-hung-in-driver"])

    s = h100_host("host-gpu-process-zombie", "NVML lists a python3 holding 30 GiB that is a zombie: jupyter, its parent, "
                  "never reaped it.")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(memory_used_mib=30600, processes=1,
                                      process_list=[{"pid": 4242, "name": "python3", "used_mib": 30012}])])
    s.proc_stat(1, "systemd").proc_stat(4100, "jupyter-lab").proc_stat(4242, "python3", "Z", parent=4100)
    yield s.expect("warn", None, ["gpu-process-zombie"], headline="gpu-process-zombie")

    s = h100_host("host-cuda-probe-crashes", "Loading libcuda and calling cuInit kills the process with SIGSEGV.")
    yield s.cuda_probe(signal=11).expect("fail", "driver-libs", ["cuda-probe-crashed"], headline="cuda-probe-crashed")

    s = h100_host("host-cuda-probe-exits", "The libcuda found calls exit(1) inside cuInit.")
    yield s.cuda_probe(exit_code=1).expect("fail", "driver-libs", ["cuda-probe-exited"], headline="cuda-probe-exited")

    s = h100_host("host-libcuda-not-loadable", "libcuda.so.1 resolves to a 32-bit file: dlopen refuses it.")
    yield s.cuda_probe(dlerror="libcuda.so.1: wrong ELF class: ELFCLASS32").expect(
        "fail", "driver-libs", ["cuda-probe-library-not-loadable"], headline="cuda-probe-library-not-loadable")

    s = h100_host("host-smoke-test-fails", "gpudoctor check --smoke: the kernel launch fails on the GPU.")
    yield s.cuda_probe(devices=[cuda_device()], smoke=[{"smoke": 0, "passed": False, "step": "cuLaunchKernel", "result": 719,
                                                        "name": "CUDA_ERROR_LAUNCH_FAILED"}]).expect(
        "fail", "driver-libs", ["smoke-test-failed"], headline="smoke-test-failed")

    s = h100_host("host-static-build", "A healthy H100 host checked by the static gpudoctor, which cannot load libcuda.")
    s.cuda_probe(unavailable="this gpudoctor is a static build, which cannot load the driver's libraries")
    yield s.expect("ok", None, [], info=["cuda-probe-unavailable", "libcuda-unversioned-missing"])

    s = h100_host("host-static-build-smoke", "gpudoctor check --smoke by the static build: it cannot load libcuda, so no kernel runs, and it says so.")
    s.cuda_probe(unavailable="this gpudoctor is a static build, which cannot load the driver's libraries")
    yield s.expect("warn", None, ["smoke-test-not-run"], info=["cuda-probe-unavailable", "libcuda-unversioned-missing"],
                   options={"smoke": True}, headline="smoke-test-not-run")

    s = h100_host("host-gpu-memory-repair-pending", "NVML: uncorrected ECC errors, with a row remapping and a page retirement pending.")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(ecc_uncorrected_volatile=2, ecc_uncorrected_aggregate=2, remapped_rows_pending=True,
                                      retired_pages_pending=True)])
    yield s.expect("warn", None, ["gpu-uncorrected-ecc-errors", "gpu-row-remapping-pending", "gpu-retired-pages-pending"], headline="gpu-uncorrected-ecc-errors")

    s = h100_host("host-gpu-rows-exhausted", "NVML: a row remapping failed (no spare rows left) and the InfoROM is corrupt.")
    s.nvml_probe(devices=[nvml_device(remapped_rows_failed=True, ecc_uncorrected_aggregate=14, inforom_valid=False)])
    yield s.expect("fail", "hardware", ["gpu-row-remapping-failed", "gpu-inforom-corrupt"], headline="gpu-row-remapping-failed")
