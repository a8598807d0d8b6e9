"""A scenario: the files, devices, variables and child answers of one
situation, written as a gpudoctor-snapshot/1 directory with the
expected.json its replay must give (docs/snapshot-format.md), and the
building blocks most scenarios share (an H100 host, a compat container, ...)."""

import json
import os
import shutil
import struct

from scenarios.binaries import fatbin_elf, ld_cache, tiny_elf, tiny_module

KERNEL = "6.1.0-18-amd64"
PROC_VERSION = ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  {v}  Thu Feb 22 01:44:30 UTC 2024\n"
                "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
PROC_VERSION_OPEN = ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {v}  Release Build  "
                     "(dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024\n"
                     "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")

# The NVIDIA wheels tensorflow[and-cuda] 2.16 installs: directory -> (dist-info name, version, files).
TENSORFLOW_WHEELS = {
    "cuda_runtime": ("nvidia_cuda_runtime_cu12", "12.3.101", ["libcudart.so.12"]),
    "cublas": ("nvidia_cublas_cu12", "12.3.4.1", ["libcublas.so.12", "libcublasLt.so.12"]),
    "cufft": ("nvidia_cufft_cu12", "11.0.12.1", ["libcufft.so.11"]),
    "cusolver": ("nvidia_cusolver_cu12", "11.5.4.101", ["libcusolver.so.11"]),
    "cusparse": ("nvidia_cusparse_cu12", "12.2.0.103", ["libcusparse.so.12"]),
    "cudnn": ("nvidia_cudnn_cu12", "8.9.7.29", ["libcudnn.so.8"]),
}


class Snapshot:
    def __init__(self, name, description):
        self.name = name
        self.description = description
        self.files, self.links, self.dirs = {}, {}, set()
        self.env, self.devices, self.errors = {}, {}, {}
        self.owners = {}  # file_owners: path -> mode, uid, gid of a file others may not read
        self.uname = {"sysname": "Linux", "release": KERNEL, "version": "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1",
                      "machine": "x86_64"}
        self.user = {"uid": 0, "gid": 0, "groups": []}
        self.children = []
        self.modules = ["ext4 1007616 1 - Live 0x0000000000000000", "virtio_net 65536 0 - Live 0x0000000000000000"]
        self.expected = None

    # --- building blocks -------------------------------------------------
    def file(self, path, content):
        self.files[path] = content
        return self

    def link(self, path, target):
        self.links[path] = target
        return self

    def directory(self, path):
        self.dirs.add(path)
        return self

    def device(self, path, major, minor, mode="0666", uid=0, gid=0, open_result="ok", kind="char", **extra):
        node = {"type": kind, "major": major, "minor": minor, "mode": mode, "uid": uid, "gid": gid}
        if open_result is not None:
            node["open"] = open_result
        node.update(extra)
        self.devices[path] = node
        return self

    def pci(self, bdf, vendor, device, pci_class, driver=None, width=16, max_width=16,
            speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe", numa="0", subsystem=("10de", "16c1")):
        base = "/sys/bus/pci/devices/" + bdf
        attributes = {"vendor": "0x" + vendor, "device": "0x" + device, "class": "0x" + pci_class,
                      "subsystem_vendor": "0x" + subsystem[0], "subsystem_device": "0x" + subsystem[1],
                      "numa_node": numa, "current_link_speed": speed, "max_link_speed": max_speed,
                      "current_link_width": str(width), "max_link_width": str(max_width)}
        for name, value in attributes.items():
            self.file(base + "/" + name, value + "\n")
        if driver:
            self.link(base + "/driver", "../../../../bus/pci/drivers/" + driver)
        return self

    def plain_vm_pci(self):
        self.pci("0000:00:00.0", "8086", "1237", "060000", subsystem=("1af4", "1100"))
        self.pci("0000:00:01.0", "1af4", "1000", "020000", driver="virtio-pci", subsystem=("1af4", "0001"))
        self.pci("0000:00:02.0", "1af4", "1001", "010000", driver="virtio-pci", subsystem=("1af4", "0002"))
        return self

    def ib_port(self, device, port, state="4: ACTIVE", phys_state="5: LinkUp", rate="400 Gb/sec (4X NDR)", link_layer="InfiniBand",
                link_downed=None, link_error_recovery=None):
        """A port of an RDMA device, as /sys/class/infiniband shows it (its counters where given)."""
        base = f"/sys/class/infiniband/{device}/ports/{port}/"
        for name, value in (("state", state), ("phys_state", phys_state), ("rate", rate), ("link_layer", link_layer)):
            self.file(base + name, value + "\n")
        for name, value in (("link_downed", link_downed), ("link_error_recovery", link_error_recovery)):
            if value is not None:
                self.file(base + "counters/" + name, f"{value}\n")
        return self

    def process(self, pid, comm):
        """A running process, asleep (the kernel keeps 15 bytes of its name)."""
        return self.proc_stat(pid, comm)

    def proc_stat(self, pid, comm, state="S", parent=1, fds=(), wchan="0"):
        """A process as /proc/PID/stat gives it (state R, S, D, Z...), its wchan and its open files."""
        self.file(f"/proc/{pid}/stat", f"{pid} ({comm[:15]}) {state} {parent} {pid} {pid} 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0\n")
        self.file(f"/proc/{pid}/wchan", wchan)
        for number, target in enumerate(fds):
            self.link(f"/proc/{pid}/fd/{number}", target)
        return self

    def kernel_log(self, text):
        """What `dmesg` printed, recorded as child evidence."""
        self.children.append({"kind": "command", "args": ["dmesg"], "exit": 0, "stdout": text, "stderr": "",
                              "timed_out": False})
        return self

    def kmsg(self, records):
        """What /dev/kmsg gave: one record a line, LEVEL,SEQ,USEC,FLAGS;TEXT, then its indented KEY=VALUE lines."""
        return self.file("/dev/kmsg", records)

    def smi_banner(self, smi_version, driver_version, cuda_version, r610=False):
        """What plain `nvidia-smi` printed: its banner (from R610 with KMD and
        CUDA UMD in place of Driver and CUDA), as nvidia-smi lays it out."""
        driver_label, cuda_label = ("KMD Version:", "CUDA UMD Version:") if r610 else ("Driver Version:", "CUDA Version:")
        banner = ("+-----------------------------------------------------------------------------------------+\n"
                  f"| NVIDIA-SMI {smi_version:<21}{driver_label} {driver_version:<17}{cuda_label} {cuda_version:<8} |\n"
                  "|-----------------------------------------+------------------------+----------------------+\n")
        self.children.append({"kind": "command", "args": ["/usr/bin/nvidia-smi"], "exit": 0, "stdout": banner, "stderr": "",
                              "timed_out": False})
        return self

    def smi_version(self, smi_version, driver_version, cuda_version):
        """What `nvidia-smi --version` printed (R5xx on): the same three
        versions as the banner, without reading every GPU's state."""
        text = (f"NVIDIA-SMI version  : {smi_version}\nNVML version        : {'.'.join(driver_version.split('.')[:2])}\n"
                f"DRIVER version      : {driver_version}\nCUDA Version        : {cuda_version}\n")
        self.children.append({"kind": "command", "args": ["/usr/bin/nvidia-smi", "--version"], "exit": 0, "stdout": text,
                              "stderr": "", "timed_out": False})
        return self

    def smi(self, stdout="", exit=0, stderr="", timed_out=False, signal=None, with_cc=True, truncated=False,
            program="/usr/bin/nvidia-smi"):
        """What `nvidia-smi --query-gpu=...` answered, recorded as child evidence (truncated: more than was read)."""
        fields = ("index,driver_version,name,uuid,pci.bus_id," + ("compute_cap," if with_cc else "") +
                  "memory.total,memory.used,mig.mode.current,persistence_mode,compute_mode")
        answer = {"kind": "command", "args": [program, "--query-gpu=" + fields, "--format=csv,noheader,nounits"],
                  "exit": None if (timed_out or signal) else exit, "stdout": stdout, "stderr": stderr, "timed_out": timed_out}
        if signal:
            answer["signal"] = signal
        if truncated:
            answer["truncated"] = True
        self.children.append(answer)
        return self

    def cuda_probe(self, init=0, init_name=None, devices=(), mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
                   version=12040, signal=None, timed_out=False, exit_code=None, smoke=None, dlerror=None, unavailable=None):
        """What `gpudoctor __child driver-probe cuda` printed: one JSON object a
        line, each risky call announced before it is made."""
        args = ["cuda"] + (["smoke"] if smoke is not None else [])
        out = []
        if unavailable:
            out.append({"unavailable": unavailable})
        else:
            out.append({"begin": "dlopen libcuda.so.1"})
            out.append({"library": "libcuda.so.1", "loaded": dlerror is None, **({"error": dlerror} if dlerror else {})})
            if dlerror is None:
                out.append({"mapped": [mapped]})
                out.append({"call": "cuDriverGetVersion", "result": 0, "value": version})
                out.append({"begin": "cuInit"})
                if not (signal or timed_out or exit_code):
                    out.append({"call": "cuInit", "result": init, **({"name": init_name} if init else {})})
                    if init == 0:
                        out.append({"call": "cuDeviceGetCount", "result": 0, "value": len(devices)})
                        out.extend(devices)
                        for entry in smoke or []:
                            out.append({"begin": f"smoke {entry['smoke']}"})
                            out.append(entry)
            if not (signal or timed_out or exit_code):
                out.append({"done": True})
        answer = {"kind": "driver-probe", "args": args, "stdout": "".join(json.dumps(line) + "\n" for line in out),
                  "stderr": "", "timed_out": timed_out, "exit": None if (signal or timed_out) else (exit_code or 0)}
        if signal:
            answer["signal"] = signal
        self.children.append(answer)
        return self

    def nvml_probe(self, init=0, init_name=None, driver="550.54.15", cuda=12040, devices=(), mapped=None, p2p=None):
        """What `gpudoctor __child driver-probe nvml` printed; p2p: its NVLink
        peer-to-peer line's pairs, [index, index, nvmlGpuP2PStatus_t]."""
        out = [{"begin": "dlopen libnvidia-ml.so.1"}, {"library": "libnvidia-ml.so.1", "loaded": True},
               {"mapped": [mapped or f"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.{driver}"]},
               {"begin": "nvmlInit_v2"}, {"call": "nvmlInit_v2", "result": init, **({"name": init_name} if init else {})}]
        if init == 0:
            out += [{"call": "nvmlSystemGetDriverVersion", "result": 0, "value": driver},
                    {"call": "nvmlSystemGetCudaDriverVersion", "result": 0, "value": cuda},
                    {"call": "nvmlDeviceGetCount", "result": 0, "value": len(devices)}]
            for device in devices:
                out += [{"begin": f"nvml device {device['nvml_device']}"}, device]
            if p2p is not None:
                out += [{"begin": "nvmlDeviceGetP2PStatus"}, {"call": "nvmlDeviceGetP2PStatus", "index": "nvlink", "pairs": p2p}]
        out.append({"done": True})
        self.children.append({"kind": "driver-probe", "args": ["nvml"], "exit": 0, "timed_out": False, "stderr": "",
                              "stdout": "".join(json.dumps(line) + "\n" for line in out)})
        return self

    def loaded(self, *names):
        sizes = {"nvidia": "56823808", "nvidia_uvm": "4927488", "nvidia_modeset": "1437696", "nvidia_drm": "118784",
                 "nouveau": "2904064", "nova_core": "81920"}
        for name in names:
            taint = " (POE)" if name.startswith("nvidia") else ""
            self.modules.append(f"{name} {sizes.get(name, '65536')} 0 - Live 0x0000000000000000{taint}")
        return self

    def nvidia_driver(self, version, flavour="proprietary", uvm=True, modeset=True, userspace=True, firmware=True):
        if userspace:
            self.driver_userspace(version)
        if firmware:  # what the driver package installs beside the module (the real files are ELF images of tens of MB)
            self.gsp_firmware(version)
        self.loaded("nvidia", *(["nvidia_uvm"] if uvm else []), *(["nvidia_modeset", "nvidia_drm"] if modeset else []))
        text = PROC_VERSION_OPEN if flavour == "open" else PROC_VERSION
        self.file("/proc/driver/nvidia/version", text.format(v=version))
        self.file("/sys/module/nvidia/version", version + "\n")
        self.file("/proc/driver/nvidia/params", "ResmanDebugLevel: 4294967295\nModifyDeviceFiles: 1\n")
        majors = "Character devices:\n  1 mem\n  4 tty\n195 nvidia\n"
        if uvm:
            majors += "510 nvidia-uvm\n"
        majors += "511 nvidia-caps\n\nBlock devices:\n  8 sd\n"
        self.file("/proc/devices", majors)
        return self

    def gsp_firmware(self, version):
        for name in ("gsp_ga10x.bin", "gsp_tu10x.bin"):
            self.file(f"/lib/firmware/nvidia/{version}/{name}", "\x7fELF GSP-RM firmware image\n")
        return self

    def claimed(self, bdf, model, minor, excluded="No", uuid=None):
        uuid = uuid or f"GPU-00000000-0000-0000-0000-{minor:012d}"
        self.file(f"/proc/driver/nvidia/gpus/{bdf}/information",
                  f"Model: \t\t {model}\nIRQ:   \t\t 150\nGPU UUID: \t {uuid}\n"
                  f"Video BIOS: \t 96.00.99.00.01\nBus Type: \t PCIe\nDMA Size: \t 52 bits\n"
                  f"DMA Mask: \t 0xfffffffffffff\nBus Location: \t {bdf}\nDevice Minor: \t {minor}\n"
                  f"GPU Excluded:\t {excluded}\n")
        return self

    def driver_nodes(self, minors, uvm=True, version=None, mode="0666", gid=0, open_result="ok"):
        extra = {"driver_version": version} if version is not None else {}
        self.device("/dev/nvidiactl", 195, 255, mode=mode, gid=gid, open_result=open_result, **extra)
        for minor in minors:
            self.device(f"/dev/nvidia{minor}", 195, minor, mode=mode, gid=gid, open_result=open_result)
        if uvm:
            self.device("/dev/nvidia-uvm", 510, 0, mode=mode, gid=gid, open_result=open_result)
            self.device("/dev/nvidia-uvm-tools", 510, 1, mode=mode, gid=gid, open_result=open_result)
        return self

    def in_docker(self, legacy=True):
        self.file("/.dockerenv", "")
        self.file("/proc/self/cgroup", "0::/\n")
        mounts = ["1071 1000 0:62 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A"]
        if legacy:
            mounts.append("1099 1071 0:74 / /proc/driver/nvidia rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=555")
        self.file("/proc/self/mountinfo", "\n".join(mounts) + "\n")
        return self

    def driver_userspace(self, version, directory="/usr/lib/x86_64-linux-gnu", smi=True):
        """The driver's libraries as its installer lays them out: the real
        file named by version, the SONAME link beside it."""
        for stem, soname in (("libcuda.so", "libcuda.so.1"), ("libnvidia-ml.so", "libnvidia-ml.so.1"),
                             ("libnvidia-ptxjitcompiler.so", "libnvidia-ptxjitcompiler.so.1"),
                             ("libnvidia-nvvm.so", "libnvidia-nvvm.so.4")):
            self.file(f"{directory}/{stem}.{version}", tiny_elf(soname, ["libc.so.6"]))
            self.link(f"{directory}/{soname}", f"{stem}.{version}")
        self.file("/usr/lib/x86_64-linux-gnu/libc.so.6", tiny_elf("libc.so.6"))
        self.directory("/lib/x86_64-linux-gnu")
        if smi:
            self.file("/usr/bin/nvidia-smi", "")
            self.env.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        return self

    def cuda_wheel(self, site, major="12", version="12.4.127", cudnn="9.1.0.70"):
        """A pip-installed CUDA runtime: only libcudart.so.<major> on disk,
        the full version in its dist-info."""
        lib = f"{site}/nvidia/cuda_runtime/lib" if major == "12" else f"{site}/nvidia/cu{major}/lib"
        package = f"nvidia_cuda_runtime_cu{major}" if major == "12" else "nvidia_cuda_runtime"
        self.file(f"{lib}/libcudart.so.{major}", tiny_elf(f"libcudart.so.{major}", ["libc.so.6"]))
        relative = lib[len(site) + 1:]
        self.file(f"{site}/{package}-{version}.dist-info/RECORD", f"{relative}/libcudart.so.{major},sha256=x,1\n")
        if cudnn:
            self.file(f"{site}/nvidia/cudnn/lib/libcudnn.so.9", tiny_elf("libcudnn.so.9"))
            self.file(f"{site}/nvidia_cudnn_cu{major}-{cudnn}.dist-info/RECORD", "nvidia/cudnn/lib/libcudnn.so.9,sha256=x,1\n")
        return self

    def torch_venv(self, version="2.5.1+cu124", cuda="12.4", fatbin=None, prefix="/opt/venv", damaged=False, pins=None):
        """A virtual environment with a PyTorch wheel: torch/version.py and, for a
        CUDA build, torch/lib/libtorch_cuda.so carrying the given fatbin entries."""
        site = f"{prefix}/lib/python3.11/site-packages"
        cuda_text = f"'{cuda}'" if cuda else "None"
        self.file(f"{site}/torch/version.py", f"from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
                                              f"__version__ = '{version}'\ndebug = False\ncuda: Optional[str] = {cuda_text}\n"
                                              f"git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\nhip: Optional[str] = None\n")
        self.file(f"{site}/torch-{version.split('+')[0]}.dist-info/RECORD", "torch/version.py,sha256=x,1\n")
        if pins:  # torch's exact Requires-Dist pins of the nvidia-* wheels, as its METADATA has them
            marker = '; platform_system == "Linux" and platform_machine == "x86_64"'
            self.file(f"{site}/torch-{version.split('+')[0]}.dist-info/METADATA",
                      f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\nRequires-Dist: filelock\n" +
                      "".join(f"Requires-Dist: {name}=={pin}{marker}\n" for name, pin in pins.items()) +
                      "\nTensors and Dynamic neural networks in Python with strong GPU acceleration\nRequires-Dist: not-a-header==1\n")
        if fatbin is not None:
            self.file(f"{site}/torch/lib/libtorch_cuda.so", fatbin_elf("libtorch_cuda.so", fatbin, damaged))
        self.env["VIRTUAL_ENV"] = prefix
        return self

    def conda_env(self, prefix="/opt/conda", python="3.10", packages=(), activated=False):
        """A conda environment as conda lays it out: bin/python3, lib/pythonX/site-packages,
        and conda-meta/<name>-<version>-<build>.json for each (name, version, build, {file: soname})
        package, its "files" relative to the prefix; the image's PATH leads to bin/ (no CONDA_PREFIX)
        unless activated."""
        self.file(f"{prefix}/bin/python{python}", "")
        self.link(f"{prefix}/bin/python3", f"python{python}")
        self.directory(f"{prefix}/lib/python{python}/site-packages")
        self.file(f"{prefix}/conda-meta/history", "")
        for name, version, build, files in packages:
            for path, soname in files.items():
                self.file(f"{prefix}/{path}", tiny_elf(soname, ["libc.so.6"]))
            record = {"name": name, "version": version, "build": build, "channel": "https://conda.anaconda.org/conda-forge/linux-64",
                      "files": sorted(files)}
            self.file(f"{prefix}/conda-meta/{name}-{version}-{build}.json", json.dumps(record))
        if activated:
            self.env["CONDA_PREFIX"] = prefix
        self.env["PATH"] = f"{prefix}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        return self

    def package(self, name, version, prefix="/opt/venv", requires=()):
        """A distribution installed in the venv at prefix: its dist-info folder,
        with `requires` as its METADATA's Requires-Dist lines."""
        site = f"{prefix}/lib/python3.11/site-packages"
        self.file(f"{site}/{name}-{version}.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" +
                  "".join(f"Requires-Dist: {requirement}\n" for requirement in requires))
        self.env["VIRTUAL_ENV"] = prefix
        return self

    def nvidia_wheel(self, wheel, package, version, sonames, prefix="/opt/venv"):
        """An NVIDIA library wheel as pip installs it: site/nvidia/<wheel>/lib
        and a dist-info whose RECORD lists the files (where the version of a
        libcudnn.so.9 is read)."""
        site = f"{prefix}/lib/python3.11/site-packages"
        for name in sonames:
            self.file(f"{site}/nvidia/{wheel}/lib/{name}", tiny_elf(name, runpath="$ORIGIN"))
        self.file(f"{site}/{package}-{version}.dist-info/RECORD", "".join(f"nvidia/{wheel}/lib/{name},sha256=x,1\n" for name in sonames))
        return self

    # The CUDA 12 libraries as their nvidia-*-cu12 wheels lay them out (cuda-toolkit[...] installs these).
    CUDA12_WHEELS = {"cuda_runtime": [("libcudart.so.12", [])], "cuda_nvrtc": [("libnvrtc.so.12", [])],
                     "cublas": [("libcublas.so.12", ["libcublasLt.so.12"]), ("libcublasLt.so.12", [])],
                     "cufft": [("libcufft.so.11", [])], "curand": [("libcurand.so.10", [])],
                     "cusolver": [("libcusolver.so.11", ["libcublas.so.12", "libcusparse.so.12"])],
                     "cusparse": [("libcusparse.so.12", ["libnvJitLink.so.12"])], "nvjitlink": [("libnvJitLink.so.12", [])],
                     "cuda_cupti": [("libcupti.so.12", [])], "cudnn": [("libcudnn.so.9", [])]}

    def cuda12_wheels(self, wheels, prefix="/opt/venv", versions=None):
        """Those wheels, each library with the RUNPATH the wheels give it
        ($ORIGIN and the sibling wheels it needs)."""
        site = f"{prefix}/lib/python3.11/site-packages"
        versions = {"cudnn": "9.8.0.87", "cublas": "12.4.5.8", "cufft": "11.2.1.3", "curand": "10.3.5.147",
                    "cusolver": "11.6.1.9", "cusparse": "12.3.1.170", **(versions or {})}
        for wheel in wheels:
            for name, needed in self.CUDA12_WHEELS[wheel]:
                self.file(f"{site}/nvidia/{wheel}/lib/{name}",
                          tiny_elf(name, needed=needed, runpath="$ORIGIN:$ORIGIN/../../nvjitlink/lib:$ORIGIN/../../cublas/lib:$ORIGIN/../../cusparse/lib"))
            self.file(f"{site}/nvidia_{wheel}_cu12-{versions.get(wheel, '12.4.127')}.dist-info/RECORD",
                      "".join(f"nvidia/{wheel}/lib/{name},sha256=x,1\n" for name, _ in self.CUDA12_WHEELS[wheel]))
        return self

    def cuda12_toolkit_libraries(self, directory="/usr/local/cuda-12.4/lib64", names=None):
        """A CUDA 12 toolkit's lib64 with the same libraries (only those in names, when given)."""
        for wheel, libraries in self.CUDA12_WHEELS.items():
            for name, needed in libraries:
                if names is None or name in names:
                    self.file(f"{directory}/{name}", tiny_elf(name, needed=needed))
        return self

    def cupy_wheel(self, version="13.3.0", major="12", prefix="/opt/venv"):
        """CuPy's extension modules as a cupy-cudaXXx wheel lays them out:
        DT_NEEDED on cuBLAS, cuFFT, cuRAND and cuSPARSE (cupy_builder's
        CUDA feature), and on the runtime before CuPy 14 (which links it
        statically and opens it by name); no RUNPATH. NVRTC is opened by name."""
        site = f"{prefix}/lib/python3.11/site-packages"
        runtime = [] if int(version.split(".")[0]) >= 14 else [f"libcudart.so.{major}"]
        cufft = {"11": "10", "12": "11", "13": "12"}[major]
        modules = {"cupy/_core/core": runtime, "cupy/_core/_routines_linalg": runtime + [f"libcublas.so.{major}"],
                   "cupy/cuda/cufft": runtime + [f"libcufft.so.{cufft}"], "cupy/cuda/device": runtime,
                   "cupy_backends/cuda/libs/cublas": [f"libcublas.so.{major}"], "cupy_backends/cuda/libs/curand": ["libcurand.so.10"],
                   "cupy_backends/cuda/libs/cusparse": [f"libcusparse.so.{major}"]}
        for module, needed in modules.items():
            name = f"{module.rsplit('/', 1)[1]}.cpython-311-x86_64-linux-gnu.so"
            self.file(f"{site}/{module}.cpython-311-x86_64-linux-gnu.so", tiny_elf(name, needed=needed))
        return self.package(f"cupy_cuda{major}x", version, prefix=prefix)

    def jax_cuda_plugin(self, version="0.7.1", major="12", prefix="/opt/venv"):
        """jax[cudaNN]'s two plugin wheels: jax_cudaNN_pjrt's xla_cuda_plugin.so
        (XLA, which opens the CUDA libraries by name) and jax_cudaNN_plugin's
        extension modules, with jax and jaxlib of the same release."""
        site = f"{prefix}/lib/python3.11/site-packages"
        self.file(f"{site}/jax_plugins/xla_cuda{major}/xla_cuda_plugin.so", tiny_elf("xla_cuda_plugin.so"))
        self.file(f"{site}/jax_cuda{major}_plugin/_versions.cpython-311-x86_64-linux-gnu.so", tiny_elf("_versions.so"))
        for name in ("jax", "jaxlib", f"jax_cuda{major}_plugin", f"jax_cuda{major}_pjrt"):
            self.package(name, version, prefix=prefix)
        self.file(f"{site}/jax/version.py", f'_version: str = "{version}"\n_minimum_jaxlib_version: str = "{version}"\n')
        return self

    def tensorflow_venv(self, version="2.16.1", cuda="12.3", cudnn="8", wheels_on_runpath=True, prefix="/opt/venv",
                        archs=("sm_60", "sm_70", "sm_80", "sm_89", "compute_90"), runpath_on_pywrap=False):
        """A TensorFlow wheel: the build_info.py it generates (CUDA, cuDNN and
        the architectures it was built for) and libtensorflow_framework.so.2,
        which dlopen-s the CUDA libraries by name -- through a RUNPATH into the
        nvidia-* wheels, or (wheels_on_runpath=False, as 2.16.1 shipped) not."""
        site = f"{prefix}/lib/python3.11/site-packages"
        listed = ", ".join(f"'{arch}'" for arch in archs)
        self.file(f"{site}/tensorflow/python/platform/build_info.py",
                  '"""Auto-generated module providing information about the build."""\nimport collections\n\n'
                  f"build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-17/bin/clang'), "
                  f"('cuda_compute_capabilities', [{listed}]), ('cuda_version', '{cuda}'), ('cudnn_version', '{cudnn}'), "
                  "('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', True)])\n")
        self.file(f"{site}/tensorflow-{version}.dist-info/RECORD", "tensorflow/python/platform/build_info.py,sha256=x,1\n")
        runpath = ":".join(f"$ORIGIN/../nvidia/{wheel}/lib" for wheel in TENSORFLOW_WHEELS) if wheels_on_runpath else "$ORIGIN"
        if runpath_on_pywrap:  # the RUNPATH into the wheels on python/_pywrap_tensorflow_internal.so ($ORIGIN/../../nvidia) only
            self.file(f"{site}/tensorflow/libtensorflow_framework.so.2", tiny_elf("libtensorflow_framework.so.2", runpath="$ORIGIN"))
            self.file(f"{site}/tensorflow/python/_pywrap_tensorflow_internal.so",
                      tiny_elf("_pywrap_tensorflow_internal.so", runpath=runpath.replace("$ORIGIN/..", "$ORIGIN/../..")))
        else:
            self.file(f"{site}/tensorflow/libtensorflow_framework.so.2", tiny_elf("libtensorflow_framework.so.2", runpath=runpath))
        self.env["VIRTUAL_ENV"] = prefix
        return self

    def tensorflow_wheels(self, skip=(), prefix="/opt/venv"):
        """The NVIDIA wheels `pip install tensorflow[and-cuda]` brings for CUDA 12 and cuDNN 8."""
        for wheel, (package, version, sonames) in TENSORFLOW_WHEELS.items():
            if wheel not in skip:
                self.nvidia_wheel(wheel, package, version, sonames, prefix)
        return self

    def onnxruntime_venv(self, version="1.20.1", cuda="12.2", fatbin=((2, 80, 1, 7), (2, 86, 1, 7), (2, 90, 1, 7)), prefix="/opt/venv"):
        """onnxruntime-gpu: build_and_package_info.py and the CUDA provider
        library, which links cuBLAS, cuDNN 9, cuFFT, cuRAND and the runtime with
        RUNPATH $ORIGIN only -- the nvidia-* wheels are not on it."""
        site = f"{prefix}/lib/python3.11/site-packages"
        self.file(f"{site}/onnxruntime/capi/build_and_package_info.py",
                  f"package_name = 'onnxruntime-gpu'\n__version__ = '{version}'\ncuda_version = '{cuda}'\n")
        self.file(f"{site}/onnxruntime_gpu-{version}.dist-info/RECORD", "onnxruntime/capi/build_and_package_info.py,sha256=x,1\n")
        self.file(f"{site}/onnxruntime/capi/libonnxruntime_providers_cuda.so",
                  tiny_elf("libonnxruntime_providers_cuda.so", runpath="$ORIGIN", fatbin=list(fatbin),
                           needed=["libcublasLt.so.12", "libcublas.so.12", "libcudnn.so.9", "libcurand.so.10", "libcufft.so.11", "libcudart.so.12"]))
        self.env["VIRTUAL_ENV"] = prefix
        return self

    def torch_wheel_libraries(self, prefix="/opt/venv", wheels=("cuda_runtime", "cublas", "cudnn"), versions={}):
        """torch's libtorch_cuda.so as the wheels lay it out: DT_NEEDED on the
        CUDA libraries, found through a RUNPATH into the nvidia-* wheels
        beside torch; `wheels` says which of those wheels are installed."""
        site = f"{prefix}/lib/python3.11/site-packages"
        optional = ("nccl", "cusparse", "nvjitlink")  # linked only where asked for
        linked = ["cuda_runtime", "cublas", "cudnn"] + [wheel for wheel in optional if wheel in wheels]
        runpath = ":".join(f"$ORIGIN/../../nvidia/{wheel}/lib" for wheel in linked) + ":$ORIGIN"
        self.file(f"{site}/torch/lib/libtorch_cuda.so",
                  tiny_elf("libtorch_cuda.so", needed=["libc10_cuda.so", "libcudart.so.12", "libcublas.so.12", "libcudnn.so.9"] +
                           (["libnccl.so.2"] if "nccl" in wheels else []) +
                           (["libcusparse.so.12"] if "cusparse" in wheels else []), runpath=runpath))
        self.file(f"{site}/torch/lib/libc10_cuda.so", tiny_elf("libc10_cuda.so", needed=["libcudart.so.12"], runpath=runpath))
        libraries = {"cuda_runtime": [("libcudart.so.12", [])],
                     "cublas": [("libcublas.so.12", ["libcublasLt.so.12"]), ("libcublasLt.so.12", [])],
                     "cudnn": [("libcudnn.so.9", [])], "nccl": [("libnccl.so.2", [])],
                     # cuSPARSE 12.N needs nvJitLink 12.N's minor-versioned symbols; its RUNPATH names the wheel beside it.
                     "cusparse": [("libcusparse.so.12", ["libnvJitLink.so.12"])], "nvjitlink": [("libnvJitLink.so.12", [])]}
        runpaths = {"cusparse": "$ORIGIN:$ORIGIN/../../nvjitlink/lib"}
        for wheel in wheels:
            for name, needed in libraries[wheel]:
                self.file(f"{site}/nvidia/{wheel}/lib/{name}", tiny_elf(name, needed=needed, runpath=runpaths.get(wheel, "$ORIGIN")))
            if wheel in versions:  # the wheel's dist-info, whose RECORD says which version each file is
                package = "nvidia_cuda_runtime_cu12" if wheel == "cuda_runtime" else f"nvidia_{wheel}_cu12"
                self.file(f"{site}/{package}-{versions[wheel]}.dist-info/RECORD",
                          "".join(f"nvidia/{wheel}/lib/{name},sha256=x,1\n" for name, _ in libraries[wheel]))
        return self

    def expect(self, verdict, failing_layer, findings, absent=(), info=(), options=None, headline=None, action=None):
        """headline: the rule the closing line must name (the root cause) in
        every scenario that is not ok; a consequence can never be it.
        action: what a fleet should do about the machine (model/action.h), where
        the scenario is about that."""
        self.expected = {"description": self.description, "verdict": verdict, "failing_layer": failing_layer,
                         "headline": headline, "findings": sorted(findings), "absent": sorted(absent),
                         "info": sorted(info)}
        if action:
            self.expected["action"] = action
        if options:  # how `check` is run on it: {"image": true, "gpu": "2330", "host_driver": "550.54.15"}
            self.expected["options"] = options
        return self

    def owner(self, path, mode, uid=0, gid=0):
        """stat(2)'s mode and owner of a file, where others may not read it
        (snapshot.json's file_owners; the stored copy has the replayer's)."""
        self.owners[path] = {"mode": mode, "uid": uid, "gid": gid}
        return self

    # --- output ----------------------------------------------------------
    def write(self, out):
        target = os.path.join(out, self.name)
        shutil.rmtree(target, ignore_errors=True)
        root = os.path.join(target, "root")
        os.makedirs(root)
        self.file("/proc/modules", "\n".join(self.modules) + "\n")
        for path, content in self.files.items():
            os.makedirs(os.path.dirname(root + path), exist_ok=True)
            with open(root + path, "wb") as handle:
                handle.write(content.encode("latin-1") if isinstance(content, str) else content)
        for path, link_target in self.links.items():
            os.makedirs(os.path.dirname(root + path), exist_ok=True)
            os.symlink(link_target, root + path)
        snapshot = {"schema": "gpudoctor-snapshot/1", "gpudoctor": {"version": "fixture (tools/make_snapshots.py)"},
                    "env": self.env, "uname": self.uname, "user": self.user, "devices": self.devices,
                    "children": self.children}
        if self.errors:
            snapshot["errors"] = self.errors
        if self.owners:
            snapshot["file_owners"] = self.owners
        if self.dirs:
            snapshot["directories"] = sorted(self.dirs)
        with open(os.path.join(target, "snapshot.json"), "w") as handle:
            json.dump(snapshot, handle, indent=2, sort_keys=True)
            handle.write("\n")
        with open(os.path.join(target, "expected.json"), "w") as handle:
            json.dump(self.expected, handle, indent=2)
            handle.write("\n")


def wsl_libraries(s, smi=True):
    """WSL's /usr/lib/wsl/lib: regular files, all with SONAME libcuda.so.1,
    registered through ld.wsl.conf in the cache, and the Windows driver's
    nvidia-smi for Linux (smi), which only WSL's login shells put on PATH."""
    for name in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1"):
        s.file("/usr/lib/wsl/lib/" + name, tiny_elf("libcuda.so.1"))
    if smi:
        s.file("/usr/lib/wsl/lib/nvidia-smi", "")
    s.file("/usr/lib/wsl/lib/libnvidia-ml.so.1", tiny_elf("libnvidia-ml.so.1"))
    s.file("/usr/lib/wsl/lib/libnvidia-ptxjitcompiler.so.1", tiny_elf("libnvidia-ptxjitcompiler.so.1"))
    s.file("/etc/ld.so.conf.d/ld.wsl.conf", "/usr/lib/wsl/lib\n")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"),
                                         ("libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1"),
                                         ("libnvidia-ptxjitcompiler.so.1", "/usr/lib/wsl/lib/libnvidia-ptxjitcompiler.so.1")]))


def compat_container(name, description, host, gpu=("2330", "NVIDIA H100 80GB HBM3", "030200"),
                     compat="560.35.03", compat_cuda="12.6", runtime="12.6.77"):
    """A CUDA image whose cuda-compat libcuda the CDI hook registered first
    (00-compat-*.conf), over the host driver the toolkit injected."""
    s = Snapshot(name, description).plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", gpu[0], gpu[2], driver="nvidia")
    s.nvidia_driver(host).claimed("0000:1b:00.0", gpu[1], 0)
    s.driver_nodes([0], version=host)
    s.in_docker(legacy=False).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_CTK_LIBCUDA_DIR": "/usr/lib/x86_64-linux-gnu"})
    toolkit = "/usr/local/cuda-" + compat_cuda
    note = {"CUDA Version": compat_cuda, "Driver": [535, 550, 560] if compat_cuda == "12.6" else [535, 550],
            "Device": [1, 2, 7, 8, 9, 10, 11, 12, 13, 14]}
    s.file(f"{toolkit}/compat/libcuda.so.{compat}", tiny_elf("libcuda.so.1", ["libc.so.6"], fwd_note=note))
    s.link(f"{toolkit}/compat/libcuda.so.1", f"libcuda.so.{compat}")
    s.file(f"{toolkit}/lib64/libcudart.so.{runtime}", tiny_elf("libcudart.so.12"))
    s.link(f"{toolkit}/lib64/libcudart.so.12", f"libcudart.so.{runtime}")
    s.file("/etc/ld.so.conf.d/00-compat-1234.conf", toolkit + "/compat\n")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", toolkit + "/compat/libcuda.so.1"),
                                         ("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
                                         ("libcudart.so.12", toolkit + "/lib64/libcudart.so.12")]))
    return s


def h100_host(name, description, version="550.54.15"):
    s = Snapshot(name, description).plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200", driver="nvidia")
    s.nvidia_driver(version).claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0)
    s.driver_nodes([0], version=version)
    s.device("/dev/nvidia-modeset", 195, 254)
    s.file("/usr/bin/nvidia-modprobe", "")
    return s


def cuda_device(index=0, bus="1B", name="NVIDIA H100 80GB HBM3"):
    """One device line of the cuda probe."""
    return {"device": index, "name": name, "uuid": f"GPU-00000000-0000-0000-0000-{index:012d}",
            "bus_id": f"00000000:{bus}:00.0", "compute_capability": "9.0", "memory_total_mib": 81559}


def nvml_device(index=0, bus="1B", name="NVIDIA H100 80GB HBM3", **changes):
    """One device line of the nvml probe: a healthy, idle H100 unless changed."""
    device = {"nvml_device": index, "name": name, "uuid": f"GPU-00000000-0000-0000-0000-{index:012d}",
              "bus_id": f"00000000:{bus}:00.0", "compute_capability": "9.0", "memory_total_mib": 81559,
              "memory_used_mib": 0, "utilization_percent": 0, "temperature_c": 31, "power_draw_w": 71.5,
              "power_limit_w": 700.0, "persistence_mode": "Enabled", "compute_mode": "Default", "mig_mode": "Disabled",
              "ecc_uncorrected_volatile": 0, "ecc_uncorrected_aggregate": 0, "retired_pages_pending": False,
              "remapped_rows_pending": False, "remapped_rows_failed": False, "inforom_valid": True,
              "throttle_reasons": [], "processes": 0, "fabric_state": "not-supported", "vbios": "96.00.99.00.01",
              "ecc_mode": "Enabled", "recovery_action": 0}
    device.update(changes)
    for mode in ("ecc_mode", "mig_mode"):  # nothing pending unless a scenario says so
        device.setdefault(mode + "_pending", device[mode])
    return {key: value for key, value in device.items() if value is not None}


SMOKE_PASSED = [{"smoke": 0, "passed": True, "ms": 41.7}]
