#!/usr/bin/env python3
"""Writes the scenario snapshots under testdata/snapshots/ (format
gpudoctor-snapshot/1, docs/snapshot-format.md), each with the verdict it must
produce in expected.json. Re-run after changing a scenario:

    python3 tools/make_snapshots.py

Each scenario is built from the facts a real system of that kind shows (file
formats from the NVIDIA driver, sysfs and the container toolkit; see
the public reports each rule's source cites for the failures they reproduce).
"""
import json
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "testdata", "snapshots")
KERNEL = "6.1.0-18-amd64"

PROC_VERSION = ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  {v}  Thu Feb 22 01:44:30 UTC 2024\n"
                "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
PROC_VERSION_OPEN = ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {v}  Release Build  "
                     "(dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024\n"
                     "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")


# The root cause each failing or warning scenario must name in its closing
# line: the rule of the headline finding (a consequence can never be it).
HEADLINES = {
    "host-torch-cudnn-older-than-pinned": "application-wheel-older-than-pinned",
    "host-pascal-torch-cu128": "application-no-kernel-image",
    "host-cupy-cuda11x-among-cu12-wheels": "application-package-cuda-runtime-missing",
    "host-nvcc-gcc-too-new": "extension-build-host-compiler-unsupported",
    "host-torch-cudnn-wheel-missing": "application-cuda-library-missing",
    "host-torch-cudnn-older-on-ld-library-path": "application-cuda-library-older-than-build",
    "host-torch-cublas-older-on-ld-library-path": "application-cuda-library-shadowed",
    "host-torch-cu124-on-470": "application-built-for-newer-cuda",
    "host-venv-on-path-rtx5090": "application-no-kernel-image",
    "host-jax-plugin-behind-jaxlib": "application-jax-plugin-version-mismatch",
    "host-jaxlib-too-old-for-jax": "application-jaxlib-outside-jax-range",
    "host-torch-nccl-older-on-ld-library-path": "application-cuda-library-older-than-build",
    "host-triton-libcuda-not-in-cache": "application-triton-cannot-find-libcuda",
    "host-triton-cannot-link-libcuda": "application-triton-cannot-link-libcuda",
    "host-triton-no-c-compiler": "application-triton-no-c-compiler",
    "host-cudnn-wheels-of-two-majors": "application-nvidia-wheels-overwrite",
    "host-torch-cu124-runtime-on-470": "driver-too-old-for-runtime",
    "host-tensorflow-cudnn-missing": "application-cuda-library-missing",
    "host-tensorflow-wheels-off-runpath": "application-cuda-library-only-in-wheels",
    "host-onnxruntime-wheels-need-preload": "application-cuda-library-only-in-wheels",
    "host-onnxruntime-no-cuda-libraries": "application-cuda-library-missing",
    "host-torch-upgraded-under-torchvision": "application-torch-version-mismatch",
    "host-torch-ld-library-path-shadows-wheel": "application-cuda-library-shadowed",
    "image-require-contradicts-runtime": "image-require-contradicts-runtime",
    "image-require-refused-by-host": "require-unsatisfied",
    "image-stub-on-loader-path": "libcuda-is-stub",
    "host-nvcc-13-torch-cu124": "extension-build-cuda-major-differs",
    "image-runtime-newer-than-host": "require-unsatisfied",
    "image-compat-on-geforce": "compat-on-unsupported-gpu",
    "image-bakes-driver-libraries": "image-carries-driver-libraries",
    "image-baked-driver-on-other-host": "driver-library-version-mismatch",
    "image-torch-for-rtx5090": "application-no-kernel-image",
    "host-rtx5090-torch-cu124": "application-no-kernel-image",
    "host-ptx-newer-than-driver": "application-ptx-needs-newer-driver",
    "host-torch-cpu-build": "application-cpu-only-build",
    "host-cuinit-999-uvm-not-loadable": "cuda-init-unknown-error-without-uvm",
    "host-cuinit-999-after-resume": "cuda-init-unknown-error",
    "host-cuinit-os-error": "cuda-init-failed",
    "host-cuda-probe-crashes": "cuda-probe-crashed",
    "host-cuda-probe-exits": "cuda-probe-exited",
    "host-libcuda-not-loadable": "cuda-probe-library-not-loadable",
    "host-smoke-test-fails": "smoke-test-failed",
    "host-gpu-memory-repair-pending": "gpu-uncorrected-ecc-errors",
    "host-gpu-rows-exhausted": "gpu-row-remapping-failed",
    "host-hgx-fabric-manager-down": "cuda-init-system-not-ready",
    "container-bad-capability": "container-driver-capability-invalid",
    "container-baked-driver-libs": "driver-library-version-mismatch",
    "container-capabilities-compute-only": "container-capability-utility-missing",
    "container-capabilities-utility-only": "container-capability-compute-missing",
    "container-cgroup-denied": "device-open-denied",
    "container-compat-branch-not-accepted": "compat-host-branch-not-accepted",
    "container-compat-branch-unsupported": "compat-host-branch-unsupported",
    "container-compat-older-than-host": "compat-older-than-host-driver",
    "container-compat-on-geforce": "compat-on-unsupported-gpu",
    "container-compat-mounted-over-driver": "compat-on-unsupported-gpu",
    "container-libcuda-off-loader-path": "libcuda-off-loader-path",
    "container-no-gpu-access": "container-gpu-not-requested",
    "container-not-injected": "container-gpu-not-injected",
    "container-require-minor-compatible": "require-unsatisfied-but-minor-compatible",
    "container-require-unsatisfied": "require-unsatisfied",
    "container-uvm-missing": "nvidia-uvm-not-loaded",
    "container-visible-none": "container-gpu-none",
    "container-visible-void": "container-gpu-void",
    "dev-vm-capture": "no-nvidia-gpu",
    "garbage-input": "nvidia-uvm-not-loaded",
    "host-cuda-visible-devices-out-of-range": "cuda-visible-devices-selects-nothing",
    "host-cuda-visible-devices-partly-ignored": "cuda-visible-devices-partly-ignored",
    "host-cuda-visible-devices-two-mig": "cuda-visible-devices-several-mig",
    "host-cuda-visible-devices-unknown-uuid": "cuda-visible-devices-selects-nothing",
    "host-cuda13-on-pascal": "runtime-cannot-target-gpu",
    "host-gpu-dropped-by-driver": "gpu-dropped-by-driver",
    "host-gpu-excluded": "gpu-excluded-by-driver",
    "host-gpu-fell-off-bus": "device-open-failed",
    "host-gpu-newer-than-driver": "gpu-newer-than-driver",
    "host-gpu-node-missing": "gpu-device-node-missing",
    "host-gpu-not-claimed": "gpu-not-claimed",
    "host-ioctl-version-mismatch": "driver-version-ioctl-mismatch",
    "host-libcuda-stub": "libcuda-is-stub",
    "host-nvidia-smi-hangs": "nvidia-smi-timed-out",
    "host-nvidia-smi-crashes": "nvidia-smi-crashed",
    "host-nvidia-smi-disagrees": "nvidia-smi-driver-disagrees",
    "host-nvidia-smi-gpus-disagree": "nvidia-smi-driver-versions-differ",
    "host-compute-mode-prohibited": "gpu-compute-mode-prohibited",
    "host-open-module-installed-volta": "installed-open-module-on-pre-turing-gpu",
    "host-gsp-firmware-error": "kernel-log-gsp-firmware-error",
    "host-secure-boot-key-rejected": "kernel-log-module-key-rejected",
    "host-xid-79-in-log": "kernel-log-gpu-fell-off-bus",
    "host-xid-48-in-log": "gpu-xid-reported",
    "host-upgraded-api-mismatch-in-log": "driver-library-version-mismatch",
    "host-torch-bundled-runtime": "runtime-relies-on-minor-version-compatibility",
    "host-nvidia-blacklisted": "nvidia-blacklisted",
    "host-installed-module-wrong-kernel": "installed-module-wrong-kernel",
    "host-pascal-installed-590": "gpu-dropped-by-installed-driver",
    "host-open-module-geforce-535": "open-module-unsupported-gpu",
    "host-libcuda-unversioned-stub": "libcuda-unversioned-is-stub",
    "host-module-not-built": "nvidia-module-not-built-for-kernel",
    "host-module-versions-disagree": "kernel-module-versions-disagree",
    "host-no-gpu": "no-nvidia-gpu",
    "host-node-permissions": "device-node-permission-denied",
    "host-node-wrong-kind": "device-node-wrong-kind",
    "host-node-wrong-number": "device-node-wrong-number",
    "host-nouveau-also-loaded": "competing-driver-loaded",
    "host-nouveau-bound": "gpu-bound-to-other-driver",
    "host-nova-core-bound": "gpu-bound-to-other-driver",
    "host-nvjitlink-shadowed": "cuda-library-shadowed",
    "host-open-module-pascal": "open-module-on-pre-turing-gpu",
    "host-pci-unreadable": "pci-bus-unreadable",
    "host-pcie-degraded": "pcie-link-width-degraded",
    "host-ptxjit-missing": "ptxjit-compiler-missing",
    "host-runtime-below-mvc-minimum": "runtime-minor-newer-without-compatibility",
    "host-runtime-minor-compatible": "runtime-relies-on-minor-version-compatibility",
    "host-runtime-newer-major": "driver-too-old-for-runtime",
    "host-secure-boot": "nvidia-module-blocked-by-secure-boot",
    "host-truncated-proc-version": "kernel-module-input-unreadable",
    "host-upgraded-without-reboot": "driver-library-version-mismatch",
    "host-vfio-passthrough": "gpu-bound-to-vfio",
    "wsl1-no-gpu": "wsl1-has-no-gpu",
    "wsl2-linux-driver-installed": "wsl-linux-driver-shadows-wsl",
    "wsl2-no-dxg": "wsl-dxg-missing",
}


def tiny_elf(soname, needed=(), runpath=None, rpath=None, machine=62, fwd_note=None, fatbin=None):
    """A minimal 64-bit little-endian shared object: a header, PT_LOAD over
    the whole file and PT_DYNAMIC with SONAME, NEEDED and RPATH/RUNPATH --
    what the dynamic loader (and gpudoctor) reads, and nothing else; with
    fwd_note or fatbin, also the section that carries it."""
    strings = b"\0"
    offsets = {}
    for text in [soname, *needed, runpath, rpath]:
        if text is not None and text not in offsets:
            offsets[text] = len(strings)
            strings += text.encode() + b"\0"
    strtab_offset = 64 + 2 * 56
    dynamic_offset = strtab_offset + ((len(strings) + 7) & ~7)
    entries = [(14, offsets[soname])] + [(1, offsets[name]) for name in needed]
    if runpath is not None:
        entries.append((29, offsets[runpath]))
    if rpath is not None:
        entries.append((15, offsets[rpath]))
    entries += [(5, strtab_offset), (10, len(strings)), (0, 0)]
    dynamic = b"".join(struct.pack("<qQ", tag, value) for tag, value in entries)
    size = dynamic_offset + len(dynamic)
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack(
        "<HHIQQQIHHHHHH", 3, machine, 1, 0, 64, 0, 0, 64, 56, 2, 64, 0, 0)
    load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, size, size, 0x1000)
    dyn = struct.pack("<IIQQQQQQ", 2, 6, dynamic_offset, dynamic_offset, dynamic_offset, len(dynamic), len(dynamic), 8)
    body = header + load + dyn + strings
    elf = body + bytes(dynamic_offset - len(body)) + dynamic
    extra = []  # (name, type, data): found through the section headers
    if fwd_note is not None:
        # cuda-compat's libcuda: a .note.cuda.fwd_compatibility section
        # (owner "NVIDIA Corporation", JSON payload).
        owner, desc = b"NVIDIA Corporation\0", json.dumps(fwd_note).encode() + b"\0"
        pad = lambda data: data + bytes((4 - len(data) % 4) % 4)
        extra.append((".note.cuda.fwd_compatibility", 7, struct.pack("<III", len(owner), len(desc), 1) + pad(owner) + pad(desc)))
    if fatbin is not None:  # a framework's GPU code: fatbin_container entries
        extra.append((".nv_fatbin", 1, fatbin_container(fatbin)))
    if not extra:
        return elf
    names = b"\0"
    sections = struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 4, 0)
    for name, kind, data in extra:
        offset = (len(elf) + 7) & ~7
        elf = elf + bytes(offset - len(elf)) + data
        sections += struct.pack("<IIQQQQIIQQ", len(names), kind, 0, 0, offset, len(data), 0, 0, 4, 0)
        names += name.encode() + b"\0"
    names_offset = len(elf)
    sections += struct.pack("<IIQQQQIIQQ", len(names), 3, 0, 0, names_offset, len(names) + 10, 0, 0, 4, 0)
    names += b".shstrtab\0"
    elf += names
    shoff = (len(elf) + 7) & ~7
    elf = elf + bytes(shoff - len(elf)) + sections
    count = len(extra) + 2
    # e_shoff, e_shentsize, e_shnum, e_shstrndx
    return elf[:40] + struct.pack("<Q", shoff) + elf[48:58] + struct.pack("<HHH", 64, count, count - 1) + elf[64:]


# The NVIDIA wheels tensorflow[and-cuda] 2.16 installs: directory -> (dist-info name, version, files).
TENSORFLOW_WHEELS = {
    "cuda_runtime": ("nvidia_cuda_runtime_cu12", "12.3.101", ["libcudart.so.12"]),
    "cublas": ("nvidia_cublas_cu12", "12.3.4.1", ["libcublas.so.12", "libcublasLt.so.12"]),
    "cufft": ("nvidia_cufft_cu12", "11.0.12.1", ["libcufft.so.11"]),
    "cusolver": ("nvidia_cusolver_cu12", "11.5.4.101", ["libcusolver.so.11"]),
    "cusparse": ("nvidia_cusparse_cu12", "12.2.0.103", ["libcusparse.so.12"]),
    "cudnn": ("nvidia_cudnn_cu12", "8.9.7.29", ["libcudnn.so.8"]),
}


def tiny_module(modinfo):
    """A minimal kernel module (ET_REL) with a .modinfo section of NUL-ended
    key=value strings, as modinfo(8) and gpudoctor read it."""
    info = b"".join(f"{k}={v}".encode() + b"\0" for k, v in modinfo.items())
    shstrtab = b"\0.modinfo\0.shstrtab\0"
    info_offset = 64
    shstr_offset = info_offset + len(info)
    shoff = (shstr_offset + len(shstrtab) + 7) & ~7
    header = (b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8 +
              struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2))
    body = header + info + shstrtab
    body += b"\0" * (shoff - len(body))
    null = b"\0" * 64
    modinfo_header = struct.pack("<IIQQQQIIQQ", 1, 1, 2, 0, info_offset, len(info), 0, 0, 1, 0)
    shstr_header = struct.pack("<IIQQQQIIQQ", 10, 3, 0, 0, shstr_offset, len(shstrtab), 0, 0, 1, 0)
    return body + null + modinfo_header + shstr_header


def fatbin_container(entries):
    """nvcc's fat binary container: a 16-byte header, then per entry a 64-byte
    header (kind 1 PTX / 2 SASS, PTX ISA or code version, architecture,
    flags) and its payload (8 bytes here)."""
    body = b""
    for kind, arch, major, minor in entries:
        header = struct.pack("<HHIQII", kind, 0x0101, 64, 8, 8, 0) + struct.pack("<HHI", minor, major, arch)
        header += struct.pack("<IIQQQ", 0, 0, 0x11, 0, 8)
        body += header + b"\0" * 8
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body


def fatbin_elf(soname, entries, damaged=False):
    """A shared library whose only content is a .nv_fatbin section (what the
    application layer reads of libtorch_cuda.so: section headers and fatbin
    headers, never code)."""
    fatbin = fatbin_container(entries)
    if damaged:  # the container claims more bytes than its section has
        fatbin = fatbin[:8] + struct.pack("<Q", 1 << 40) + fatbin[16:]
    names = b"\0.nv_fatbin\0.shstrtab\0"
    data_at = 64
    names_at = data_at + len(fatbin)
    table_at = (names_at + len(names) + 7) & ~7
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, table_at, 0, 64, 56, 0, 64, 3, 2)
    sections = bytes(64)
    sections += struct.pack("<IIQQQQIIQQ", 1, 1, 2, 0, data_at, len(fatbin), 0, 0, 8, 0)
    sections += struct.pack("<IIQQQQIIQQ", 12, 3, 0, 0, names_at, len(names), 0, 0, 1, 0)
    body = header + fatbin + names
    return body + bytes(table_at - len(body)) + sections


def ld_cache(entries, flags=0x0303):
    """/etc/ld.so.cache in glibc's new format for (soname, path) pairs, all
    of one architecture (x86-64's flags 0x0303; aarch64's 0x0a03), in the
    given order."""
    base = 48 + 24 * len(entries)
    strings = b""
    table = b""
    for soname, path in entries:
        key = base + len(strings)
        strings += soname.encode() + b"\0"
        value = base + len(strings)
        strings += path.encode() + b"\0"
        table += struct.pack("<iIIIQ", flags, key, value, 0, 0)
    header = b"glibc-ld.so.cache1.1" + struct.pack("<IIB3xI12x", len(entries), len(strings), 2, 0)
    return header + table + strings


class Snapshot:
    def __init__(self, name, description):
        self.name = name
        self.description = description
        self.files, self.links, self.dirs = {}, {}, set()
        self.env, self.devices, self.errors = {}, {}, {}
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

    def kernel_log(self, text):
        """What `dmesg` printed, recorded as child evidence."""
        self.children.append({"kind": "command", "args": ["dmesg"], "exit": 0, "stdout": text, "stderr": "",
                              "timed_out": False})
        return self

    def smi(self, stdout="", exit=0, stderr="", timed_out=False, signal=None, with_cc=True):
        """What `nvidia-smi --query-gpu=...` answered, recorded as child evidence."""
        fields = ("index,driver_version,name,uuid,pci.bus_id," + ("compute_cap," if with_cc else "") +
                  "memory.total,memory.used,mig.mode.current,persistence_mode,compute_mode")
        answer = {"kind": "command", "args": ["/usr/bin/nvidia-smi", "--query-gpu=" + fields, "--format=csv,noheader,nounits"],
                  "exit": None if (timed_out or signal) else exit, "stdout": stdout, "stderr": stderr, "timed_out": timed_out}
        if signal:
            answer["signal"] = signal
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

    def nvml_probe(self, init=0, init_name=None, driver="550.54.15", cuda=12040, devices=(), mapped=None):
        """What `gpudoctor __child driver-probe nvml` printed."""
        out = [{"begin": "dlopen libnvidia-ml.so.1"}, {"library": "libnvidia-ml.so.1", "loaded": True},
               {"mapped": [mapped or f"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.{driver}"]},
               {"begin": "nvmlInit_v2"}, {"call": "nvmlInit_v2", "result": init, **({"name": init_name} if init else {})}]
        if init == 0:
            out += [{"call": "nvmlSystemGetDriverVersion", "result": 0, "value": driver},
                    {"call": "nvmlSystemGetCudaDriverVersion", "result": 0, "value": cuda},
                    {"call": "nvmlDeviceGetCount", "result": 0, "value": len(devices)}]
            for device in devices:
                out += [{"begin": f"nvml device {device['nvml_device']}"}, device]
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

    def nvidia_driver(self, version, flavour="proprietary", uvm=True, modeset=True, userspace=True):
        if userspace:
            self.driver_userspace(version)
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
        linked = ["cuda_runtime", "cublas", "cudnn"] + (["nccl"] if "nccl" in wheels else [])  # NCCL only where asked for
        runpath = ":".join(f"$ORIGIN/../../nvidia/{wheel}/lib" for wheel in linked) + ":$ORIGIN"
        self.file(f"{site}/torch/lib/libtorch_cuda.so",
                  tiny_elf("libtorch_cuda.so", needed=["libc10_cuda.so", "libcudart.so.12", "libcublas.so.12", "libcudnn.so.9"] +
                           (["libnccl.so.2"] if "nccl" in wheels else []), runpath=runpath))
        self.file(f"{site}/torch/lib/libc10_cuda.so", tiny_elf("libc10_cuda.so", needed=["libcudart.so.12"], runpath=runpath))
        libraries = {"cuda_runtime": [("libcudart.so.12", [])],
                     "cublas": [("libcublas.so.12", ["libcublasLt.so.12"]), ("libcublasLt.so.12", [])],
                     "cudnn": [("libcudnn.so.9", [])], "nccl": [("libnccl.so.2", [])]}
        for wheel in wheels:
            for name, needed in libraries[wheel]:
                self.file(f"{site}/nvidia/{wheel}/lib/{name}", tiny_elf(name, needed=needed, runpath="$ORIGIN"))
            if wheel in versions:  # the wheel's dist-info, whose RECORD says which version each file is
                package = "nvidia_cuda_runtime_cu12" if wheel == "cuda_runtime" else f"nvidia_{wheel}_cu12"
                self.file(f"{site}/{package}-{versions[wheel]}.dist-info/RECORD",
                          "".join(f"nvidia/{wheel}/lib/{name},sha256=x,1\n" for name, _ in libraries[wheel]))
        return self

    def expect(self, verdict, failing_layer, findings, absent=(), info=(), options=None):
        self.expected = {"description": self.description, "verdict": verdict, "failing_layer": failing_layer,
                         "headline": HEADLINES.get(self.name), "findings": sorted(findings), "absent": sorted(absent),
                         "info": sorted(info)}
        if options:  # how `check` is run on it: {"image": true, "gpu": "2330", "host_driver": "550.54.15"}
            self.expected["options"] = options
        return self

    # --- output ----------------------------------------------------------
    def write(self):
        target = os.path.join(OUT, self.name)
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
        snapshot = {"format": "gpudoctor-snapshot/1", "gpudoctor": "fixture (tools/make_snapshots.py)",
                    "env": self.env, "uname": self.uname, "user": self.user, "devices": self.devices,
                    "children": self.children}
        if self.errors:
            snapshot["errors"] = self.errors
        if self.dirs:
            snapshot["directories"] = sorted(self.dirs)
        with open(os.path.join(target, "snapshot.json"), "w") as handle:
            json.dump(snapshot, handle, indent=2, sort_keys=True)
            handle.write("\n")
        with open(os.path.join(target, "expected.json"), "w") as handle:
            json.dump(self.expected, handle, indent=2)
            handle.write("\n")


def wsl_libraries(s):
    """WSL's /usr/lib/wsl/lib: regular files, all with SONAME libcuda.so.1,
    registered through ld.wsl.conf in the cache."""
    for name in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1"):
        s.file("/usr/lib/wsl/lib/" + name, tiny_elf("libcuda.so.1"))
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
              "throttle_reasons": [], "processes": 0, "fabric_state": "not-supported"}
    device.update(changes)
    return {key: value for key, value in device.items() if value is not None}


SMOKE_PASSED = [{"smoke": 0, "passed": True, "ms": 41.7}]


def scenarios():
    yield (Snapshot("host-no-gpu", "A VM without any NVIDIA GPU, like the development VM.")
           .plain_vm_pci().expect("fail", "hardware", ["no-nvidia-gpu"]))

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
    yield s.expect("warn", None, ["pcie-link-width-degraded"], info=["pcie-link-speed-below-max"])

    s = Snapshot("host-nouveau-bound", "An RTX 3090 claimed by nouveau; nvidia never loaded (FC-17).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="nouveau", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.loaded("nouveau")
    s.driver_userspace("550.54.15")
    yield s.expect("fail", "kernel-module", ["gpu-bound-to-other-driver", "nvidia-module-not-loaded"])

    s = Snapshot("host-nova-core-bound", "An RTX 4090 claimed by nova_core on a new kernel (FC-17).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nova_core", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.loaded("nova_core")
    s.driver_userspace("570.133.20")
    yield s.expect("fail", "kernel-module", ["gpu-bound-to-other-driver", "nvidia-module-not-loaded"])

    s = Snapshot("host-module-not-built", "Kernel updated without a DKMS rebuild: no nvidia.ko for it (FC-15).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2230", "030000")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko\nkernel/lib/crc16.ko:\n")
    s.driver_userspace("535.183.01")
    s.cuda_probe(init=35, init_name="CUDA_ERROR_INSUFFICIENT_DRIVER", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01")
    yield s.expect("fail", "kernel-module", ["nvidia-module-not-built-for-kernel", "cuda-init-insufficient-driver"],
                   absent=["nvidia-module-not-loaded"])

    def installed_module(s, version, vermagic_release, license="NVIDIA", where="updates/dkms"):
        s.file(f"/lib/modules/{s.uname['release']}/{where}/nvidia.ko",
               tiny_module({"version": version, "license": license, "srcversion": "A1B2C3D4E5F6A7B8C9D0E1F",
                            "vermagic": f"{vermagic_release} SMP preempt mod_unload modversions "}))

    # modprobe.d keeps nvidia out (left from a VFIO or nouveau setup); the
    # module itself is installed and fine.
    s = Snapshot("host-nvidia-blacklisted", "An H100 host whose /etc/modprobe.d blacklists nvidia: the module never loads at boot.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", f"updates/dkms/nvidia.ko: kernel/drivers/video/video.ko\n")
    installed_module(s, "550.54.15", KERNEL)
    s.file("/etc/modprobe.d/blacklist-gpu-passthrough.conf", "# for the VM\nblacklist nvidia\nblacklist nouveau\noptions vfio-pci ids=10de:2330\n")
    yield s.expect("fail", "kernel-module", ["nvidia-blacklisted", "nvidia-module-not-loaded"])

    # A kernel update with DKMS's module of the old kernel copied along (or a
    # module package for another kernel): vermagic names another release.
    s = Snapshot("host-installed-module-wrong-kernel", "nvidia.ko under this kernel's modules, but built for 6.1.0-17: the kernel refuses it.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "updates/dkms/nvidia.ko:\n")
    installed_module(s, "550.54.15", "6.1.0-17-amd64")
    yield s.expect("fail", "kernel-module", ["installed-module-wrong-kernel", "nvidia-module-not-loaded"])

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
                   info=["kernel-log-no-gpu-found"])

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
    yield s.expect("fail", "kernel-module", ["open-module-unsupported-gpu", "device-open-failed", "kernel-log-rm-init-failed"])

    s = Snapshot("host-healthy-geforce-open", "An RTX 4090 under the open module 560 (which drives GeForce GPUs by default).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2684", "030000", driver="nvidia", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.nvidia_driver("560.35.03", flavour="open").claimed("0000:01:00.0", "NVIDIA GeForce RTX 4090", 0)
    s.file("/proc/driver/nvidia/params", "ResmanDebugLevel: 4294967295\nModifyDeviceFiles: 1\nOpenRmEnableUnsupportedGpus: 1\n")
    s.driver_nodes([0], version="560.35.03")
    s.file("/usr/bin/nvidia-modprobe", "")
    yield s.expect("ok", None, [])

    s = Snapshot("host-secure-boot-key-rejected", "Secure Boot on and the kernel log shows the module's signature refused.").plain_vm_pci()
    s.pci("0000:1b:00.0", "10de", "2330", "030200")
    s.driver_userspace("550.54.15")
    s.file(f"/lib/modules/{KERNEL}/modules.dep", "updates/dkms/nvidia.ko:\n")
    s.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", b"\x06\x00\x00\x00\x01")
    s.kernel_log("[    3.101010] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n")
    yield s.expect("fail", "kernel-module", ["kernel-log-module-key-rejected", "nvidia-module-blocked-by-secure-boot"])

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
                                             "kernel-log-open-module-refused"])

    s = h100_host("host-gsp-firmware-error", "The H100's GSP firmware fails to boot; the adapter does not initialise and its node fails to open.")
    s.devices["/dev/nvidia0"]["open"] = "EIO"
    s.kernel_log("[   12.000001] NVRM: _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP\n"
                 "[   12.000002] NVRM: kgspInitRm_IMPL: cannot bootstrap GSP-RM, failed with status 0x40\n"
                 "[   12.000003] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM\n"
                 "[   12.000004] NVRM: GPU 0000:1b:00.0: RmInitAdapter failed! (0x62:0x40:1860)\n")
    s.smi(exit=9, stdout="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n")
    yield s.expect("fail", "kernel-module", ["kernel-log-gsp-firmware-error", "kernel-log-rm-init-failed", "device-open-failed",
                                             "nvidia-smi-cannot-reach-driver"])

    s = Snapshot("host-secure-boot", "The DKMS module exists but Secure Boot refused it (FC-16).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2230", "030000")
    s.file(f"/lib/modules/{KERNEL}/modules.dep",
           "updates/dkms/nvidia.ko.xz:\nupdates/dkms/nvidia-uvm.ko.xz: updates/dkms/nvidia.ko.xz\n")
    s.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", b"\x06\x00\x00\x00\x01")
    s.driver_userspace("550.54.15")
    yield s.expect("fail", "kernel-module", ["nvidia-module-blocked-by-secure-boot"], absent=["nvidia-module-not-loaded"])

    s = Snapshot("host-open-module-pascal", "The open kernel module on a GTX 1080, which it cannot drive.")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "1b80", "030000", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("560.35.03", flavour="open").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="560.35.03")
    s.kernel_log("[    5.100001] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1b80)\n"
                 "[    5.100002] NVRM: installed in this system is not supported by open nvidia.ko\n"
                 "[    5.100003] NVRM: because it does not include the required GPU System Processor (GSP).\n")
    yield s.expect("fail", "kernel-module", ["open-module-on-pre-turing-gpu", "no-gpu-device-node", "kernel-log-open-module-refused"],
                   absent=["gpu-not-claimed"])

    s = Snapshot("host-gpu-newer-than-driver", "An RTX 5090 next to driver 535: the module claimed nothing.")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2b85", "030000")
    s.nvidia_driver("535.183.01").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="535.183.01")
    yield s.expect("fail", "kernel-module", ["gpu-newer-than-driver", "no-gpu-device-node"], absent=["gpu-not-claimed"])

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
                   info=["nvidia-uvm-loads-on-demand", "libcuda-unversioned-missing"])

    s = Snapshot("container-uvm-missing", "Podman container with nvidiactl and nvidia0 but no nvidia-uvm (FC-19).")
    s.pci("0000:01:00.0", "10de", "1eb8", "030200", driver="nvidia", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("535.161.08", uvm=False).claimed("0000:01:00.0", "Tesla T4", 0)
    s.file("/run/.containerenv", "engine=\"podman-4.9.3\"\n").file("/proc/self/cgroup", "0::/\n")
    s.env.update({"container": "podman", "NVIDIA_VISIBLE_DEVICES": "all"})
    s.driver_nodes([0], uvm=False, version="535.161.08")
    yield s.expect("fail", "kernel-module", ["nvidia-uvm-not-loaded", "nvidia-uvm-node-missing"])

    s = h100_host("container-no-gpu-access", "docker run without --gpus: the host's PCI and /proc are visible, no nodes.")
    s.devices.clear()
    s.in_docker(legacy=False)
    yield s.expect("fail", "container", ["container-gpu-not-requested", "nvidiactl-missing"])

    s = h100_host("container-not-injected", "An nvidia/cuda image (NVIDIA_VISIBLE_DEVICES=all by default) run by plain runc.")
    s.devices.clear()
    s.in_docker(legacy=False).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    yield s.expect("fail", "container", ["container-gpu-not-injected", "nvidiactl-missing"])

    s = h100_host("container-visible-void", "NVIDIA_VISIBLE_DEVICES=void: the runtime injected nothing.")
    s.devices.clear()
    s.in_docker(legacy=False).env["NVIDIA_VISIBLE_DEVICES"] = "void"
    yield s.expect("fail", "container", ["container-gpu-void", "nvidiactl-missing"])

    s = h100_host("container-healthy-legacy", "docker --gpus all: legacy hook, every node injected and openable.")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})
    yield s.expect("ok", None, [])

    s = h100_host("container-cgroup-denied", "Nodes present and mode 0666, but the device cgroup refuses the open (FC-21).")
    s.in_docker(legacy=True).env["NVIDIA_VISIBLE_DEVICES"] = "all"
    for node in s.devices.values():
        node["open"] = "EPERM"
        node.pop("driver_version", None)
    s.smi(exit=255, stdout="Failed to initialize NVML: Unknown Error\n")
    s.nvml_probe(init=999, init_name="Unknown Error")
    yield s.expect("fail", "device-nodes", ["device-open-denied", "nvidia-smi-failed", "nvml-init-failed"])

    s = h100_host("container-bad-capability", "NVIDIA_DRIVER_CAPABILITIES holds a word the toolkit rejects.")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "0", "NVIDIA_DRIVER_CAPABILITIES": "compute,gpu"})
    yield s.expect("fail", "container", ["container-driver-capability-invalid"])

    s = h100_host("host-node-permissions", "Nodes crw-rw---- root:video and a user outside video (FC-23).")
    for node in s.devices.values():
        node.update({"mode": "0660", "gid": 44, "open": "EACCES"})
        node.pop("driver_version", None)
    s.user = {"uid": 1000, "gid": 1000, "groups": [27, 1000]}
    yield s.expect("fail", "device-nodes", ["device-node-permission-denied"], absent=["device-open-denied"])

    s = h100_host("host-gpu-node-missing", "Two GPUs claimed, but only /dev/nvidia0 exists.")
    s.pci("0000:3b:00.0", "10de", "2330", "030200", driver="nvidia").claimed("0000:3b:00.0", "NVIDIA H100 80GB HBM3", 1)
    yield s.expect("fail", "device-nodes", ["gpu-device-node-missing"])

    s = h100_host("host-ioctl-version-mismatch", "/proc says 550.54.14, the driver behind /dev/nvidiactl says 550.54.15.",
                  version="550.54.14")
    s.devices["/dev/nvidiactl"]["driver_version"] = "550.54.15"
    yield s.expect("fail", "device-nodes", ["driver-version-ioctl-mismatch"])

    buses = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
    def hgx_host(name, description):
        s = Snapshot(name, description).plain_vm_pci()
        s.nvidia_driver("550.90.07")
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
        return s

    s = hgx_host("host-hgx-8gpu-nvswitch", "An HGX H100 server: 8 GPUs and 4 NVSwitches, all healthy.")
    s.cuda_probe(devices=[cuda_device(i, bus.upper()) for i, bus in enumerate(buses)],
                 mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="completed") for i, bus in enumerate(buses)])
    yield s.expect("ok", None, [])

    s = hgx_host("host-hgx-fabric-manager-down", "The HGX server after a driver update: Fabric Manager is not running, so cuInit returns 802.")
    s.cuda_probe(init=802, init_name="CUDA_ERROR_SYSTEM_NOT_READY", mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, bus.upper(), fabric_state="not-started") for i, bus in enumerate(buses)])
    yield s.expect("fail", "driver-libs", ["cuda-init-system-not-ready", "gpu-fabric-not-ready"])

    s = Snapshot("wsl2-healthy", "WSL2 with a working GPU: /dev/dxg, no PCI GPU, no Linux module.")
    s.uname["release"] = "5.15.153.1-microsoft-standard-WSL2"
    s.pci("0000:00:00.0", "1414", "008e", "030200", subsystem=("1414", "0000"))
    s.device("/dev/dxg", 10, 125)
    wsl_libraries(s)
    # What WSL's libraries answer (an RTX 4070 on the Windows side; NVML has no PCI info there).
    rtx = {"name": "NVIDIA GeForce RTX 4070", "bus": "01"}
    s.cuda_probe(devices=[dict(cuda_device(0, rtx["bus"], rtx["name"]), compute_capability="8.9", memory_total_mib=12282)],
                 mapped="/usr/lib/wsl/lib/libcuda.so.1.1", version=12080)
    s.nvml_probe(driver="572.16", cuda=12080, mapped="/usr/lib/wsl/lib/libnvidia-ml.so.1",
                 devices=[nvml_device(0, rtx["bus"], rtx["name"], compute_capability="8.9", memory_total_mib=12282,
                                      memory_used_mib=1210, power_limit_w=200.0, persistence_mode="Enabled",
                                      ecc_uncorrected_volatile=None, ecc_uncorrected_aggregate=None)])
    yield s.expect("ok", None, [], info=["wsl-libcuda-not-a-symlink-is-harmless"])

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

    # A Grace Hopper (GH200) server: aarch64, Ubuntu's multiarch layout.
    s = Snapshot("host-healthy-gh200-aarch64", "A Grace Hopper GH200 server on aarch64 Ubuntu, driver 550.54.15.")
    s.uname.update({"release": "6.8.0-1008-nvidia-64k", "machine": "aarch64"})
    s.pci("0009:01:00.0", "10de", "2342", "030200", driver="nvidia")
    s.nvidia_driver("550.54.15", userspace=False).claimed("0009:01:00.0", "NVIDIA GH200 480GB", 0)
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
    yield s.expect("ok", None, [])

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
                    "container-visible-devices-invalid", "container-driver-capability-invalid"])

    s = Snapshot("host-pci-unreadable", "sysfs hides the PCI bus (EACCES), so no GPU can be seen.")
    s.errors["/sys/bus/pci/devices"] = "EACCES"
    yield s.expect("warn", None, ["pci-bus-unreadable"])

    s = Snapshot("wsl1-no-gpu", "WSL1: a Microsoft kernel string and no /dev/dxg.")
    s.uname["release"] = "4.4.0-19041-Microsoft"
    yield s.expect("fail", "hardware", ["wsl1-has-no-gpu"])

    s = Snapshot("wsl2-no-dxg", "WSL2 without GPU paravirtualization: no /dev/dxg.")
    s.uname["release"] = "5.10.16.3-microsoft-standard-WSL2"
    wsl_libraries(s)
    yield s.expect("fail", "device-nodes", ["wsl-dxg-missing"])

    s = h100_host("host-vfio-passthrough", "Two GPUs: one for this host, one bound to vfio-pci for a VM.")
    s.pci("0000:3b:00.0", "10de", "2330", "030200", driver="vfio-pci")
    yield s.expect("warn", None, ["gpu-bound-to-vfio"])

    s = Snapshot("host-gpu-dropped-by-driver", "A Tesla K40 (Kepler) next to driver 570, which dropped Kepler after 470.")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "1024", "030200", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("570.133.20").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="570.133.20")
    yield s.expect("fail", "kernel-module", ["gpu-dropped-by-driver", "no-gpu-device-node"], absent=["gpu-not-claimed"])

    s = Snapshot("host-gpu-not-claimed", "An RTX 4090 that driver 550 supports but did not claim (RmInitAdapter failed).")
    s.plain_vm_pci().pci("0000:01:00.0", "10de", "2684", "030000")
    s.nvidia_driver("550.54.15").directory("/proc/driver/nvidia/gpus")
    s.driver_nodes([], version="550.54.15")
    yield s.expect("fail", "kernel-module", ["gpu-not-claimed", "no-gpu-device-node"])

    s = h100_host("host-gpu-excluded", "The driver claimed the GPU but marked it excluded.")
    s.claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0, excluded="Yes")
    yield s.expect("warn", None, ["gpu-excluded-by-driver"])

    s = h100_host("host-nouveau-also-loaded", "nvidia drives the GPU, but nouveau is loaded too.")
    s.loaded("nouveau")
    yield s.expect("warn", None, ["competing-driver-loaded"])

    s = h100_host("host-module-versions-disagree", "/proc/driver/nvidia/version and /sys/module/nvidia/version differ.")
    s.file("/sys/module/nvidia/version", "550.54.14\n")
    yield s.expect("warn", None, ["kernel-module-versions-disagree"])

    s = h100_host("host-old-driver-silent-ioctl", "Driver 525 does not answer the version query (before 530.30.02).",
                  version="525.147.05")
    s.devices["/dev/nvidiactl"]["driver_version"] = ""
    s.files.pop("/usr/bin/nvidia-smi")
    yield s.expect("ok", None, [], info=["driver-version-query-unanswered", "nvidia-smi-not-on-path"])

    s = h100_host("container-visible-none", "NVIDIA_VISIBLE_DEVICES=none: libraries injected, no GPU by design.")
    s.in_docker(legacy=True).env["NVIDIA_VISIBLE_DEVICES"] = "none"
    del s.devices["/dev/nvidia0"]
    yield s.expect("fail", "container", ["container-gpu-none"], absent=["no-gpu-device-node"])

    s = h100_host("host-node-wrong-kind", "/dev/nvidia0 is a plain file, not a device (created by hand).")
    s.device("/dev/nvidia0", 0, 0, mode="0644", kind="file", open_result=None)
    yield s.expect("fail", "device-nodes", ["device-node-wrong-kind"])

    s = h100_host("host-node-wrong-number", "/dev/nvidiactl carries the numbers 195:0 instead of 195:255.")
    s.device("/dev/nvidiactl", 195, 0, driver_version="550.54.15")
    yield s.expect("fail", "device-nodes", ["device-node-wrong-number"])

    s = h100_host("host-gpu-fell-off-bus", "Opening /dev/nvidia0 fails with ENXIO: the GPU is gone (Xid 79).")
    s.devices["/dev/nvidia0"]["open"] = "ENXIO"
    yield s.expect("fail", "device-nodes", ["device-open-failed"])

    s = h100_host("host-truncated-proc-version", "/proc/driver/nvidia/version cut off in the middle of the version.")
    s.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.5")
    yield s.expect("warn", None, ["kernel-module-input-unreadable"], absent=["driver-version-ioctl-mismatch"])
    s = h100_host("host-libcuda-stub", "LD_LIBRARY_PATH puts the toolkit's stubs (with a libcuda.so.1 link) ahead of the driver (FC-29).")
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    s.file(stubs + "/libcuda.so", tiny_elf("libcuda.so.1"))
    s.link(stubs + "/libcuda.so.1", "libcuda.so")
    s.env["LD_LIBRARY_PATH"] = stubs
    s.cuda_probe(init=34, init_name="CUDA_ERROR_STUB_LIBRARY", mapped=stubs + "/libcuda.so")
    yield s.expect("fail", "driver-libs", ["libcuda-is-stub", "libcuda-unversioned-is-stub", "cuda-init-stub-library"])

    # CUDA 12's stubs directory holds only libcuda.so: with it on
    # LD_LIBRARY_PATH, libcuda.so.1 programs work and dlopen("libcuda.so") ones get the stub.
    s = h100_host("host-libcuda-unversioned-stub", "LD_LIBRARY_PATH holds the toolkit's stubs/ (only libcuda.so): numba-style dlopen(\"libcuda.so\") gets the stub.")
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    s.file(stubs + "/libcuda.so", tiny_elf("libcuda.so.1"))
    s.env["LD_LIBRARY_PATH"] = stubs
    yield s.expect("warn", None, ["libcuda-unversioned-is-stub"], absent=["libcuda-is-stub"])

    s = h100_host("host-xid-79-in-log", "The kernel log shows Xid 79 and the GPU's node no longer opens.")
    s.devices["/dev/nvidia0"]["open"] = "ENXIO"
    s.kernel_log("[ 8301.123456] NVRM: GPU at PCI:0000:1b:00: GPU-00000000-0000-0000-0000-000000000000\n"
                 "[ 8301.123460] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
                 "[ 8301.123470] NVRM: GPU 0000:1b:00.0: GPU has fallen off the bus.\n")
    yield s.expect("fail", "hardware", ["kernel-log-gpu-fell-off-bus", "device-open-failed"])

    s = h100_host("host-xid-48-in-log", "A healthy-looking host whose kernel log shows a double-bit ECC error (Xid 48).")
    s.kernel_log("[ 9120.000001] NVRM: Xid (PCI:0000:1b:00): 48, pid=2244, name=python3, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 3, subpartition 1.\n")
    yield s.expect("warn", None, ["gpu-xid-reported"])

    s = h100_host("host-nvidia-smi-hangs", "nvidia-smi does not answer within 5 s: the driver is wedged.")
    s.smi(timed_out=True)
    s.cuda_probe(timed_out=True)
    yield s.expect("fail", "driver-libs", ["nvidia-smi-timed-out", "cuda-probe-timed-out"])

    s = h100_host("host-compute-mode-prohibited", "The H100 was left in compute mode Prohibited: no CUDA context can be created.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Prohibited\n")
    s.nvml_probe(devices=[nvml_device(compute_mode="Prohibited")])
    yield s.expect("fail", "driver-libs", ["gpu-compute-mode-prohibited", "gpu-compute-mode-prohibited-nvml"])

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
    yield s.expect("fail", "driver-libs", ["nvidia-smi-crashed"])

    s = h100_host("host-nvidia-smi-disagrees", "nvidia-smi reports 550.54.14 while /proc/driver/nvidia/version says 550.54.15.")
    s.smi("0, 550.54.14, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    s.nvml_probe(driver="550.54.14", devices=[nvml_device()])
    yield s.expect("warn", None, ["nvidia-smi-driver-disagrees", "nvml-driver-disagrees"])

    s = h100_host("host-nvidia-smi-gpus-disagree", "Two GPU lines of nvidia-smi report different driver versions.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n1, 550.54.14, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 0, Disabled, Enabled, Default\n")
    yield s.expect("warn", None, ["nvidia-smi-driver-versions-differ"])

    s = h100_host("host-mig-enabled", "An H100 in MIG mode with two GPU instances; nvidia-smi and NVML both say so.")
    s.smi("0, 550.54.15, NVIDIA H100 80GB HBM3, GPU-00000000-0000-0000-0000-000000000000, 00000000:1B:00.0, 9.0, 81559, 11, Enabled, Enabled, Default\n")
    s.device("/dev/nvidia-caps/nvidia-cap1", 511, 1, mode="0400").device("/dev/nvidia-caps/nvidia-cap2", 511, 2, mode="0444")
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
    yield s.expect("fail", "driver-libs", ["libcuda-off-loader-path"], absent=["libcuda-not-found"])

    s = h100_host("container-baked-driver-libs", "The image ships libcuda 565.57.01 of its own; the host runs 535.161.08 (FC-12).", version="535.161.08")
    s.in_docker(legacy=True).env["NVIDIA_VISIBLE_DEVICES"] = "all"
    s.driver_userspace("565.57.01")
    for soname, stem in (("libcuda.so.1", "libcuda.so"), ("libnvidia-ml.so.1", "libnvidia-ml.so"),
                         ("libnvidia-ptxjitcompiler.so.1", "libnvidia-ptxjitcompiler.so"), ("libnvidia-nvvm.so.4", "libnvidia-nvvm.so")):
        s.links[f"/usr/lib/x86_64-linux-gnu/{soname}"] = f"{stem}.565.57.01"
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch"])

    def upgraded_without_reboot(name, description):
        """Driver packages moved to 550.54.15 while the 550.54.14 module stays loaded."""
        s = h100_host(name, description, version="550.54.14")
        for stem in ("libcuda.so", "libnvidia-ml.so", "libnvidia-ptxjitcompiler.so", "libnvidia-nvvm.so"):
            s.files.pop(f"/usr/lib/x86_64-linux-gnu/{stem}.550.54.14")
        s.driver_userspace("550.54.15")
        return s

    s = upgraded_without_reboot("host-upgraded-without-reboot", "Driver packages upgraded to 550.54.15 while 550.54.14 is still loaded (FC-11).")
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch"])

    s = upgraded_without_reboot("host-upgraded-api-mismatch-in-log", "The same upgrade without reboot, with the NVRM API mismatch lines in the kernel log.")
    s.kernel_log("[ 7022.000001] NVRM: API mismatch: the client has the version 550.54.15, but\n[ 7022.000002] NVRM: this kernel module has the version 550.54.14.  Please\n")
    s.smi(exit=18, stdout="Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.54.15\n")
    s.cuda_probe(init=803, init_name="CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")
    s.nvml_probe(init=18, init_name="Driver/library version mismatch")
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch", "kernel-log-api-mismatch", "nvidia-smi-version-mismatch",
                                           "cuda-init-driver-mismatch", "nvml-version-mismatch"])

    s = Snapshot("wsl2-linux-driver-installed", "A Linux driver package installed inside WSL2 shadows /usr/lib/wsl/lib (FC-41).")
    s.uname["release"] = "5.15.153.1-microsoft-standard-WSL2"
    s.device("/dev/dxg", 10, 125)
    wsl_libraries(s)
    s.driver_userspace("535.183.01")
    s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
                                         ("libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1")]))
    yield s.expect("fail", "driver-libs", ["wsl-linux-driver-shadows-wsl"])

    s = h100_host("container-capabilities-utility-only", "NVIDIA_DRIVER_CAPABILITIES=utility: nvidia-smi works, libcuda was never injected (FC-09).")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "utility"})
    for path in [p for p in list(s.files) if "libcuda" in p or "ptxjit" in p or "nvvm" in p]:
        s.files.pop(path)
    for path in [p for p in list(s.links) if "libcuda" in p or "ptxjit" in p or "nvvm" in p]:
        s.links.pop(path)
    yield s.expect("fail", "container", ["container-capability-compute-missing"], absent=["libcuda-not-found"])

    s = h100_host("container-capabilities-compute-only", "NVIDIA_DRIVER_CAPABILITIES=compute: CUDA works, NVML and nvidia-smi missing (FC-10).")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute"})
    for path in [p for p in list(s.files) if "libnvidia-ml" in p or p == "/usr/bin/nvidia-smi"]:
        s.files.pop(path)
    s.links.pop("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1")
    yield s.expect("warn", None, ["container-capability-utility-missing"], info=["nvidia-smi-not-on-path"])

    s = h100_host("host-ptxjit-missing", "A partial driver install without libnvidia-ptxjitcompiler, and a runtime without version metadata.")
    s.files.pop("/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.550.54.15")
    s.links.pop("/usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.1")
    s.file("/usr/local/cuda-12.4/lib64/libcudart.so.12", tiny_elf("libcudart.so.12"))
    yield s.expect("warn", None, ["ptxjit-compiler-missing"], info=["cuda-runtime-version-unknown", "cuda-runtime-off-loader-path"])

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
    yield s.expect("warn", None, ["cuda-library-shadowed"])

    yield compat_container("container-cuda-compat-active",
                           "A CUDA 12.6 image on a 535 host: its cuda-compat libcuda 560.35.03 is registered first, as supported.",
                           "535.183.01").cuda_probe(devices=[cuda_device()], version=12060,
                                                    mapped="/usr/local/cuda-12.6/compat/libcuda.so.560.35.03").expect(
        "ok", None, [], info=["compat-in-use"], absent=["driver-library-version-mismatch"])

    yield compat_container("container-compat-branch-unsupported",
                           "cuda-compat 560.35.03 (CUDA 12.6) on a 550 host: its note accepts 550, NVIDIA's table supports only 535.",
                           "550.54.15").expect("warn", None, ["compat-host-branch-unsupported"], info=["compat-in-use"])

    yield compat_container("container-compat-on-geforce", "The same CUDA 12.6 image with cuda-compat on an RTX 4090 (FC-26).",
                           "535.183.01", gpu=("2684", "GeForce RTX 4090", "030000")).cuda_probe(
        init=804, init_name="CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", mapped="/usr/local/cuda-12.6/compat/libcuda.so.560.35.03").expect(
        "fail", "driver-libs", ["compat-on-unsupported-gpu", "cuda-init-compat-refused"])

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
    yield s.expect("fail", "driver-libs", ["compat-on-unsupported-gpu"], absent=["driver-library-version-mismatch"])

    yield compat_container("container-compat-older-than-host", "A CUDA 12.4 image's cuda-compat 550.54.15 registered on a 580 host (FC-28).",
                           "580.95.05", compat="550.54.15", compat_cuda="12.4", runtime="12.4.127").expect(
        "fail", "driver-libs", ["compat-older-than-host-driver"])

    yield compat_container("container-compat-branch-not-accepted", "cuda-compat 560.35.03 on a 545 host, a branch its note does not list.",
                           "545.23.08").expect("fail", "driver-libs", ["compat-host-branch-not-accepted"])

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
    yield s.expect("warn", None, ["runtime-relies-on-minor-version-compatibility"], info=["cuda-runtime-off-loader-path"])

    s = h100_host("host-runtime-newer-major", "A CUDA 13 wheel on driver 575 (CUDA 12.9): no compatibility across majors (FC-02).",
                  version="575.57.08")
    s.cuda_wheel("/opt/venv/lib/python3.11/site-packages", major="13", version="13.0.96", cudnn=None)
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("fail", "cuda-runtime", ["driver-too-old-for-runtime"], info=["cuda-runtime-off-loader-path"])

    s = h100_host("host-runtime-minor-compatible", "A CUDA 12.4 wheel on driver 535 (CUDA 12.2): runs through minor-version compatibility.",
                  version="535.183.01")
    s.cuda_wheel("/opt/venv/lib/python3.11/site-packages")
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("warn", None, ["runtime-relies-on-minor-version-compatibility"])

    s = Snapshot("host-runtime-below-mvc-minimum", "CUDA 11.8 on an early 450 driver (11.0), below 450.80.02.").plain_vm_pci()
    s.pci("0000:07:00.0", "10de", "20b0", "030200", driver="nvidia")
    s.nvidia_driver("450.51.06").claimed("0000:07:00.0", "A100-SXM4-40GB", 0)
    s.driver_nodes([0], version="450.51.06")
    s.file("/usr/local/cuda-11.8/lib64/libcudart.so.11.8.89", tiny_elf("libcudart.so.11.0"))
    s.link("/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "libcudart.so.11.8.89")
    yield s.expect("fail", "cuda-runtime", ["runtime-minor-newer-without-compatibility"], info=["cuda-runtime-off-loader-path"])

    s = Snapshot("host-cuda13-on-pascal", "A CUDA 13 wheel on a GTX 1080: driver 580 still drives Pascal, CUDA 13 cannot build for it.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "1b80", "030000", driver="nvidia", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("580.95.05").claimed("0000:01:00.0", "NVIDIA GeForce GTX 1080", 0)
    s.driver_nodes([0], version="580.95.05")
    s.cuda_wheel("/opt/venv/lib/python3.11/site-packages", major="13", version="13.0.96", cudnn=None)
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    yield s.expect("fail", "cuda-runtime", ["runtime-cannot-target-gpu"], info=["cuda-runtime-off-loader-path"])

    s = Snapshot("host-pascal-torch-cu128", "torch 2.7.0+cu128 on a GTX 1080 (sm_61): cu128 builds start at sm_75; "
                 "the fix names the cu126 index, the newest that still carries Pascal (FC-35).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "1b80", "030000", driver="nvidia", speed="8.0 GT/s PCIe", max_speed="8.0 GT/s PCIe")
    s.nvidia_driver("580.95.05").claimed("0000:01:00.0", "NVIDIA GeForce GTX 1080", 0)
    s.driver_nodes([0], version="580.95.05")
    yield s.torch_venv(version="2.7.0+cu128", cuda="12.8", fatbin=[(2, arch, 1, 7) for arch in (75, 80, 86, 90, 100, 120)]).expect(
        "fail", "application", ["application-no-kernel-image"])

    s = Snapshot("container-require-unsatisfied", "An image requiring CUDA 12.4 on a 470 host (CUDA 11.4): refused or failing at start (FC-04).").plain_vm_pci()
    s.pci("0000:07:00.0", "10de", "20b0", "030200", driver="nvidia")
    s.nvidia_driver("470.256.02").claimed("0000:07:00.0", "NVIDIA A100-SXM4-40GB", 0)
    s.driver_nodes([0], version="470.256.02")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all",
                                         "NVIDIA_REQUIRE_CUDA": "cuda>=12.4 brand=tesla,driver>=535,driver<536"})
    yield s.expect("fail", "container", ["require-unsatisfied"])

    s = Snapshot("container-require-minor-compatible", "A CUDA 12.4 image on a GeForce with driver 535 (12.2): the strict check refuses what would run (FC-05).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2204", "030000", driver="nvidia", speed="16.0 GT/s PCIe", max_speed="16.0 GT/s PCIe")
    s.nvidia_driver("535.183.01").claimed("0000:01:00.0", "NVIDIA GeForce RTX 3090", 0)
    s.driver_nodes([0], version="535.183.01")
    s.in_docker(legacy=True).env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_REQUIRE_CUDA":
        "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=tesla,driver>=535,driver<536 brand=quadro,driver>=535,driver<536"})
    yield s.expect("warn", None, ["require-unsatisfied-but-minor-compatible"])

    s = h100_host("host-cuda-visible-devices-out-of-range", "CUDA_VISIBLE_DEVICES=2 on a one-GPU host (FC-37).")
    s.env["CUDA_VISIBLE_DEVICES"] = "2"
    s.cuda_probe(init=100, init_name="CUDA_ERROR_NO_DEVICE")
    yield s.expect("fail", "device-nodes", ["cuda-visible-devices-selects-nothing", "cuda-init-no-device"])

    s = h100_host("host-cuda-visible-devices-partly-ignored", "CUDA_VISIBLE_DEVICES=0,5 on a one-GPU host: CUDA stops at 5.")
    s.env["CUDA_VISIBLE_DEVICES"] = "0,5"
    yield s.expect("warn", None, ["cuda-visible-devices-partly-ignored"])

    s = h100_host("host-cuda-visible-devices-unknown-uuid", "CUDA_VISIBLE_DEVICES names a GPU UUID this host does not have.")
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-5a1e0c55-0000-0000-0000-000000000000"
    yield s.expect("fail", "device-nodes", ["cuda-visible-devices-selects-nothing"])

    s = h100_host("host-cuda-visible-devices-by-uuid", "CUDA_VISIBLE_DEVICES names the host's GPU by a UUID prefix: fine.")
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-00000000-0000"
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [])

    # Everything `gpudoctor snapshot` redacts, in the places a real machine
    # has it; the replay tests check that a redacted snapshot keeps none of it
    # and reaches this same diagnosis.
    s = h100_host("host-identifying-values", "A healthy H100 host full of identifying values: host and user names, "
                  "home paths, GPU UUIDs (one selected by prefix), a serial and part number, MAC and IP addresses.")
    uuid = "GPU-8f3a1c2d-4b5e-6f70-8192-a3b4c5d6e7f8"
    s.claimed("0000:1b:00.0", "NVIDIA H100 80GB HBM3", 0, uuid=uuid)
    s.file("/etc/hostname", "gpu-node-17\n")
    s.env["CUDA_VISIBLE_DEVICES"] = "GPU-8f3a1c2d"
    s.env["LD_LIBRARY_PATH"] = "/home/alice/.local/lib"
    s.directory("/home/alice/.local/lib")
    s.torch_venv(fatbin=[(2, arch, 1, 7) for arch in (80, 86, 90)], prefix="/home/alice/venv")
    s.cuda_probe(devices=[dict(cuda_device(), uuid=uuid)])
    s.nvml_probe(devices=[nvml_device(uuid=uuid, serial="1654922034781", board_part_number="900-21010-0000-000")])
    s.kernel_log("[    2.104] virtio_net virtio1 eth0: renamed, address 52:54:00:12:34:56\n"
                 "[    9.877] nfs: server 192.168.10.23 not responding, still trying\n"
                 "[   12.001] gpu-node-17 NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\n")
    yield s.expect("ok", None, [])

    s = h100_host("host-cuda-visible-devices-two-mig", "Two MIG devices in CUDA_VISIBLE_DEVICES: CUDA enumerates one (FC-38).")
    s.env["CUDA_VISIBLE_DEVICES"] = "MIG-4a8f-01,MIG-4a8f-02"
    yield s.expect("fail", "device-nodes", ["cuda-visible-devices-several-mig", "cuda-visible-devices-partly-ignored"])

    # The application layer: frameworks' GPU code against the GPUs.
    torch_cu124_archs = [(2, arch, 1, 7) for arch in (50, 60, 70, 75, 80, 86, 90)]
    s = h100_host("host-torch-matches-gpu", "An H100 with a PyTorch cu124 wheel in a venv: SASS for sm_90 is there.")
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("ok", None, [])

    # The CUDA libraries torch really loads, from its own libtorch_cuda.so.
    s = h100_host("host-torch-wheel-libraries", "torch cu124 in a venv with its nvidia-* wheels: every CUDA library it "
                  "needs is found through its RUNPATH.")
    pins = {"nvidia-cudnn-cu12": "9.1.0.70", "nvidia-cublas-cu12": "12.4.5.8"}
    s.torch_venv(pins=pins).torch_wheel_libraries()
    s.package("nvidia_cudnn_cu12", "9.1.0.70").package("nvidia_cublas_cu12", "12.4.5.8")
    yield s.expect("ok", None, [], absent=["application-cuda-library-missing", "application-cuda-library-shadowed",
                                           "application-wheel-older-than-pinned"])

    s = h100_host("host-torch-cudnn-older-than-pinned", "torch 2.5.1 pins nvidia-cudnn-cu12==9.1.0.70 but 8.9.2.26 was "
                  "installed over it: 'cuDNN version incompatibility' at first use. A newer cuBLAS than pinned is fine.")
    s.torch_venv(pins=pins).torch_wheel_libraries()
    s.package("nvidia_cudnn_cu12", "8.9.2.26").package("nvidia_cublas_cu12", "12.4.5.9")
    yield s.expect("warn", None, ["application-wheel-older-than-pinned"])

    s = h100_host("host-torch-cudnn-wheel-missing", "torch cu124 whose nvidia-cudnn-cu12 wheel is gone: libcudnn.so.9 "
                  "is found nowhere, so `import torch` fails.")
    yield s.torch_venv().torch_wheel_libraries(wheels=("cuda_runtime", "cublas")).expect(
        "fail", "application", ["application-cuda-library-missing"])

    s = h100_host("host-torch-ld-library-path-shadows-wheel", "LD_LIBRARY_PATH names an older CUDA 12.1 whose libcublas "
                  "wins over the wheel's: LD_LIBRARY_PATH is searched before RUNPATH ('undefined symbol').")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.1/lib64"
    s.file("/usr/local/cuda-12.1/lib64/libcublas.so.12", tiny_elf("libcublas.so.12", needed=["libcublasLt.so.12"]))
    s.file("/usr/local/cuda-12.1/lib64/libcublasLt.so.12", tiny_elf("libcublasLt.so.12"))
    yield s.torch_venv().torch_wheel_libraries().expect("warn", None, ["application-cuda-library-shadowed"])

    # The libraries a framework loads against the versions it was built with.
    s = h100_host("host-torch-cudnn-older-on-ld-library-path", "torch 2.5.1 was built against cuDNN 9.1.0.70 (its pinned "
                  "wheel is there), but LD_LIBRARY_PATH puts a system cuDNN 9.0.0 first: 'cuDNN version incompatibility'.")
    s.env["LD_LIBRARY_PATH"] = "/opt/cudnn/lib"
    s.file("/opt/cudnn/lib/libcudnn.so.9.0.0", tiny_elf("libcudnn.so.9")).link("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.0.0")
    s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
    yield s.expect("fail", "application", ["application-cuda-library-older-than-build", "application-cuda-library-shadowed"])

    s = h100_host("host-torch-cublas-older-on-ld-library-path", "torch 2.5.1 pins cuBLAS 12.4.5.8; LD_LIBRARY_PATH puts CUDA "
                  "12.1's cuBLAS 12.1.3.1 first: usually works, newer functions fail.")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.1/lib64"
    s.file("/usr/local/cuda-12.1/lib64/libcublas.so.12.1.3.1", tiny_elf("libcublas.so.12", needed=["libcublasLt.so.12"]))
    s.link("/usr/local/cuda-12.1/lib64/libcublas.so.12", "libcublas.so.12.1.3.1")
    s.file("/usr/local/cuda-12.1/lib64/libcublasLt.so.12.1.3.1", tiny_elf("libcublasLt.so.12"))
    s.link("/usr/local/cuda-12.1/lib64/libcublasLt.so.12", "libcublasLt.so.12.1.3.1")
    s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
    yield s.expect("warn", None, ["application-cuda-library-older-than-build-may-work", "application-cuda-library-shadowed"],
                   absent=["application-cuda-library-older-than-build"])

    s = h100_host("host-cudnn-wheels-of-two-majors", "torch cu124 with nvidia-cudnn-cu12 9.1.0.70, and nvidia-cudnn-cu11 "
                  "9.1.0.70 installed later by another package: both install nvidia/cudnn/lib/libcudnn.so.9.")
    s.torch_venv(pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
    s.file("/opt/venv/lib/python3.11/site-packages/nvidia_cudnn_cu11-9.1.0.70.dist-info/RECORD",
           "nvidia/cudnn/lib/libcudnn.so.9,sha256=y,1\nnvidia/cudnn/include/cudnn.h,sha256=y,1\n")
    yield s.expect("warn", None, ["application-nvidia-wheels-overwrite"])

    # Triton, torch.compile's compiler: libcuda.so.1 through ldconfig -p, -lcuda, a C compiler.
    def torch_with_triton(name, description, cache=True, link=True, gcc=True):
        s = h100_host(name, description)
        lib = "/usr/lib/x86_64-linux-gnu"
        if cache:
            s.file("/etc/ld.so.cache", ld_cache([("libcuda.so.1", f"{lib}/libcuda.so.1"), ("libnvidia-ml.so.1", f"{lib}/libnvidia-ml.so.1"),
                                                ("libc.so.6", f"{lib}/libc.so.6")]))
        if link:
            s.link(f"{lib}/libcuda.so", "libcuda.so.1")
        if gcc:
            s.file("/usr/bin/gcc-12", "").link("/usr/bin/gcc", "gcc-12")
        s.torch_venv(fatbin=torch_cu124_archs).package("triton", "3.1.0")
        return s

    s = torch_with_triton("host-triton-ready", "torch 2.5.1 with triton 3.1.0: libcuda.so.1 in ld.so.cache, libcuda.so beside "
                          "it, gcc on PATH: torch.compile can build its launcher.")
    yield s.expect("ok", None, [], absent=["application-triton-cannot-find-libcuda", "application-triton-cannot-link-libcuda",
                                           "application-triton-no-c-compiler"])

    s = torch_with_triton("host-triton-libcuda-not-in-cache", "The driver's libraries were copied in without running ldconfig: "
                          "the loader finds libcuda.so.1 in a default directory, Triton's `ldconfig -p` does not.", cache=False)
    yield s.expect("warn", None, ["application-triton-cannot-find-libcuda"])

    s = torch_with_triton("host-triton-cannot-link-libcuda", "libcuda.so.1 is in the cache but there is no libcuda.so "
                          "anywhere the linker looks: Triton's `cc ... -lcuda` fails.", link=False)
    yield s.expect("warn", None, ["application-triton-cannot-link-libcuda"], absent=["application-triton-cannot-find-libcuda"])

    s = torch_with_triton("host-triton-no-c-compiler", "A slim image's Python with torch and triton and no gcc or clang: "
                          "torch.compile stops at 'Failed to find C compiler'.", gcc=False)
    yield s.expect("warn", None, ["application-triton-no-c-compiler"])

    s = h100_host("host-torch-nccl-older-on-ld-library-path", "torch 2.5.1 pins NCCL 2.21.5; LD_LIBRARY_PATH puts a system "
                  "NCCL 2.18.3 first: newer NCCL symbols are missing at import.")
    s.env["LD_LIBRARY_PATH"] = "/opt/nccl/lib"
    s.file("/opt/nccl/lib/libnccl.so.2.18.3", tiny_elf("libnccl.so.2")).link("/opt/nccl/lib/libnccl.so.2", "libnccl.so.2.18.3")
    s.torch_venv(pins=dict(pins, **{"nvidia-nccl-cu12": "2.21.5"})).torch_wheel_libraries(
        wheels=("cuda_runtime", "cublas", "cudnn", "nccl"), versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8", "nccl": "2.21.5"})
    yield s.expect("fail", "application", ["application-cuda-library-older-than-build", "application-cuda-library-shadowed"])

    # A framework built for a newer CUDA major than the driver: both ways out.
    def a100_on_470(name, description):
        s = Snapshot(name, description).plain_vm_pci()
        s.pci("0000:07:00.0", "10de", "20b0", "030200", driver="nvidia")
        s.nvidia_driver("470.256.02").claimed("0000:07:00.0", "NVIDIA A100-SXM4-40GB", 0)
        return s.driver_nodes([0], version="470.256.02")

    s = a100_on_470("host-torch-cu124-on-470", "torch 2.5.1+cu124 on an A100 with driver 470 (CUDA 11.4): upgrade the "
                    "driver to a CUDA 12 one, or install torch 2.5.1 from the cu118 index.")
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("fail", "application", ["application-built-for-newer-cuda"])

    s = a100_on_470("host-torch-cu124-runtime-on-470", "The same with the nvidia-cuda-runtime-cu12 wheel beside it: the "
                    "runtime's finding is the cause, the framework's is listed under it.")
    s.torch_venv(fatbin=torch_cu124_archs).cuda_wheel("/opt/venv/lib/python3.11/site-packages", cudnn=None)
    yield s.expect("fail", "cuda-runtime", ["driver-too-old-for-runtime", "application-built-for-newer-cuda"])

    # TensorFlow: its build info, and the libraries it dlopen-s by name.
    s = h100_host("host-tensorflow-and-cuda", "TensorFlow 2.16 with its [and-cuda] wheels on its RUNPATH, on an H100: its "
                  "build carries SASS up to sm_89 and compute_90 PTX (CUDA 12.3), which the 550 driver JIT-compiles.")
    yield s.tensorflow_venv().tensorflow_wheels().expect("ok", None, [], info=["application-runs-by-ptx-jit"])

    s = h100_host("host-tensorflow-runpath-on-pywrap", "TensorFlow whose RUNPATH into its wheels is on "
                  "python/_pywrap_tensorflow_internal.so, not libtensorflow_framework.so.2: the libraries are found from there.")
    yield s.tensorflow_venv(runpath_on_pywrap=True).tensorflow_wheels().expect(
        "ok", None, [], info=["application-runs-by-ptx-jit"], absent=["application-cuda-library-only-in-wheels"])

    s = h100_host("host-tensorflow-cudnn-missing", "TensorFlow 2.16 whose nvidia-cudnn-cu12 wheel is missing: "
                  "'Could not load dynamic library libcudnn.so.8', and the GPU is skipped.")
    yield s.tensorflow_venv().tensorflow_wheels(skip=("cudnn",)).expect("fail", "application", ["application-cuda-library-missing"])

    s = h100_host("host-tensorflow-wheels-off-runpath", "TensorFlow 2.16.1 with its [and-cuda] wheels installed, but no "
                  "RUNPATH into them and no LD_LIBRARY_PATH: 'Cannot dlopen some GPU libraries' (tensorflow#65842).")
    yield s.tensorflow_venv(wheels_on_runpath=False).tensorflow_wheels().expect(
        "warn", None, ["application-cuda-library-only-in-wheels"], absent=["application-cuda-library-missing"])

    # ONNX Runtime GPU: its CUDA provider links CUDA libraries it does not search wheels for.
    s = h100_host("host-onnxruntime-wheels-need-preload", "onnxruntime-gpu 1.20 with the NVIDIA wheels installed but not on "
                  "the loader's path: the provider fails to load unless they are preloaded.")
    s.onnxruntime_venv()
    for wheel, package, version, sonames in (("cublas", "nvidia_cublas_cu12", "12.6.4.1", ["libcublas.so.12", "libcublasLt.so.12"]),
                                              ("cudnn", "nvidia_cudnn_cu12", "9.5.1.17", ["libcudnn.so.9"]),
                                              ("curand", "nvidia_curand_cu12", "10.3.7.77", ["libcurand.so.10"]),
                                              ("cufft", "nvidia_cufft_cu12", "11.3.0.4", ["libcufft.so.11"]),
                                              ("cuda_runtime", "nvidia_cuda_runtime_cu12", "12.4.127", ["libcudart.so.12"])):
        s.nvidia_wheel(wheel, package, version, sonames)
    yield s.expect("warn", None, ["application-cuda-library-only-in-wheels"], absent=["application-cuda-library-missing"])

    s = h100_host("host-onnxruntime-toolkit-on-path", "onnxruntime-gpu 1.20 with a CUDA 12.6 toolkit and cuDNN 9 on "
                  "LD_LIBRARY_PATH: every library its CUDA provider links is found.")
    s.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.6/lib64:/usr/lib/x86_64-linux-gnu/cudnn9"
    for name in ("libcublas.so.12", "libcublasLt.so.12", "libcurand.so.10", "libcufft.so.11", "libcudart.so.12"):
        s.file(f"/usr/local/cuda-12.6/lib64/{name}", tiny_elf(name))
    s.file("/usr/lib/x86_64-linux-gnu/cudnn9/libcudnn.so.9", tiny_elf("libcudnn.so.9"))
    yield s.onnxruntime_venv().expect("ok", None, [], absent=["application-cuda-library-only-in-wheels", "application-cuda-library-missing"])

    s = h100_host("host-onnxruntime-no-cuda-libraries", "onnxruntime-gpu 1.20 and no CUDA libraries anywhere: its CUDA "
                  "provider cannot load, and sessions fall back to the CPU.")
    yield s.onnxruntime_venv().expect("fail", "application", ["application-cuda-library-missing"])

    # Packages compiled for exactly one torch release.
    def torch_with_extensions(name, description, torch_version):
        s = h100_host(name, description)
        s.torch_venv(version=torch_version + "+cu124", pins=pins).torch_wheel_libraries(versions={"cudnn": "9.1.0.70", "cublas": "12.4.5.8"})
        s.package("torchvision", "0.20.1", requires=["numpy", "torch==2.5.1", "pillow!=8.3.*,>=5.3.0"])
        s.package("vllm", "0.6.4.post1", requires=["torch (==2.5.1)", "xformers==0.0.28.post3; platform_system == \"Linux\""])
        s.file("/opt/venv/lib/python3.11/site-packages/vllm/_C.abi3.so",
               tiny_elf("_C.abi3.so", needed=["libcudart.so.12"], fatbin=[(2, arch, 1, 7) for arch in (70, 75, 80, 86, 89, 90)]))
        return s

    s = torch_with_extensions("host-vllm-torchvision-match-torch", "vllm 0.6.4 and torchvision 0.20.1 beside the torch 2.5.1 "
                              "they pin: vLLM's kernels carry sm_90, its libcudart is torch's, already loaded.", "2.5.1")
    yield s.expect("ok", None, [], absent=["application-torch-version-mismatch", "application-cuda-library-missing",
                                           "application-cuda-library-older-than-build"])

    s = h100_host("host-torchvision-in-venv-torch-in-system", "A venv created with --system-site-packages holds torchvision "
                  "0.20.1; the torch 2.5.1 it imports is the system's, in /usr/local/lib/python3.11/site-packages: fine.")
    s.torch_venv(fatbin=torch_cu124_archs, prefix="/usr/local")
    s.env["VIRTUAL_ENV"] = "/opt/venv"
    s.package("torchvision", "0.20.1", requires=["torch==2.5.1"])
    yield s.expect("ok", None, [], absent=["application-torch-version-mismatch"])

    s = torch_with_extensions("host-torch-upgraded-under-torchvision", "torch upgraded to 2.6.0 under torchvision 0.20.1 and "
                              "vllm 0.6.4, which pin torch 2.5.1: 'operator torchvision::nms does not exist'.", "2.6.0")
    yield s.expect("fail", "application", ["application-torch-version-mismatch"])

    s = Snapshot("host-rtx5090-torch-cu124", "An RTX 5090 (sm_120) on driver 570 with a torch cu124 wheel: no SASS or PTX for it (FC-34).").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2b85", "030000", driver="nvidia", speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
    s.nvidia_driver("570.133.20").claimed("0000:01:00.0", "NVIDIA GeForce RTX 5090", 0)
    s.driver_nodes([0], version="570.133.20").file("/usr/bin/nvidia-modprobe", "")
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("fail", "application", ["application-no-kernel-image"])

    s = Snapshot("host-venv-on-path-rtx5090", "A machine (or image) whose /opt/venv/bin is on PATH without VIRTUAL_ENV, as Dockerfiles set it: "
                 "the venv's torch cu124 is found through python3 and pyvenv.cfg, and has no code for the RTX 5090.").plain_vm_pci()
    s.pci("0000:01:00.0", "10de", "2b85", "030000", driver="nvidia", speed="32.0 GT/s PCIe", max_speed="32.0 GT/s PCIe")
    s.nvidia_driver("570.133.20").claimed("0000:01:00.0", "NVIDIA GeForce RTX 5090", 0)
    s.driver_nodes([0], version="570.133.20").file("/usr/bin/nvidia-modprobe", "")
    s.torch_venv(fatbin=torch_cu124_archs)
    del s.env["VIRTUAL_ENV"]
    s.env["PATH"] = "/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    s.file("/opt/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    s.file("/usr/bin/python3.11", "").link("/opt/venv/bin/python3", "/usr/bin/python3.11")
    yield s.expect("fail", "application", ["application-no-kernel-image"])

    s = h100_host("host-ptx-newer-than-driver", "An H100 on driver 550 (CUDA 12.4) with a build carrying only compute_90 PTX from CUDA 12.8 (PTX ISA 8.7).")
    yield s.torch_venv(version="2.7.0+cu128", cuda="12.8", fatbin=[(1, 90, 8, 7)]).expect(
        "fail", "application", ["application-ptx-needs-newer-driver"], absent=["application-no-kernel-image"])

    s = h100_host("host-torch-ptx-jit", "An H100 with a build that has SASS only up to sm_86 and PTX compute_86 (ISA 8.4): it JIT-compiles.")
    yield s.torch_venv(fatbin=[(2, 80, 1, 7), (2, 86, 1, 7), (1, 86, 8, 4)]).expect("ok", None, [], info=["application-runs-by-ptx-jit"])

    s = h100_host("host-torch-fatbin-damaged", "An H100 whose libtorch_cuda.so has a damaged fatbin header: said, and no false 'no kernel image'.")
    yield s.torch_venv(fatbin=torch_cu124_archs, damaged=True).expect(
        "ok", None, [], info=["application-gpu-code-unreadable"], absent=["application-no-kernel-image"])

    s = h100_host("host-nvcc-13-torch-cu124", "torch cu124 in a venv and CUDA 13.0's nvcc first on PATH: extension builds fail.")
    s.file("/usr/local/cuda-13.0/bin/nvcc", "").file("/usr/local/cuda-13.0/version.json",
                                                    '{"cuda": {"name": "CUDA SDK", "version": "13.0.2"}, "cuda_nvcc": {"name": "CUDA NVCC", "version": "13.0.88"}}\n')
    s.file("/usr/local/cuda-12.4/bin/nvcc", "").file("/usr/local/cuda-12.4/version.json", '{"cuda_nvcc": {"version": "12.4.131"}}\n')
    s.env["PATH"] = "/usr/local/cuda-13.0/bin:/usr/local/cuda-12.4/bin:/usr/bin:/bin"
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("warn", None, ["extension-build-cuda-major-differs"])

    s = h100_host("host-nvcc-126-torch-cu124", "torch cu124 with CUDA 12.6's nvcc on PATH (a pip-style toolkit, versions in dist-info): fine, noted.")
    s.file("/usr/local/cuda-12.6/bin/nvcc", "").directory("/usr/local/cuda-12.6/dist-info/nvidia_cuda_nvcc-12.6.85.dist-info")
    s.file("/usr/local/cuda-12.6/dist-info/nvidia_cuda_nvcc-12.6.85.dist-info/RECORD", "bin/nvcc,,\n")
    s.env["PATH"] = "/usr/local/cuda-12.6/bin:/usr/bin:/bin"
    yield s.torch_venv(fatbin=torch_cu124_archs).expect("ok", None, [], info=["extension-build-cuda-minor-differs"])

    # The host compiler nvcc would run, against the range its host_config.h enforces.
    def toolkit_with_gcc(name, description, gcc, ccbin=None):
        s = h100_host(name, description)
        s.file("/usr/local/cuda-12.4/bin/nvcc", "").file("/usr/local/cuda-12.4/version.json", '{"cuda_nvcc": {"version": "12.4.131"}}\n')
        s.file("/usr/local/cuda-12.4/include/crt/host_config.h",
               "#if defined(__GNUC__)\n\n#if __GNUC__ > 13\n\n#error -- unsupported GNU version! gcc versions later than 13 "
               "are not supported!\n\n#endif /* __GNUC__ > 13 */\n")
        for version in ("13", "14"):
            s.file(f"/usr/bin/gcc-{version}", "").file(f"/usr/bin/g++-{version}", "")
        s.link("/usr/bin/gcc", f"gcc-{gcc}")
        s.env["PATH"] = "/usr/local/cuda-12.4/bin:/usr/bin:/bin"
        if ccbin:
            s.env["NVCC_CCBIN"] = ccbin
        return s

    yield toolkit_with_gcc("host-nvcc-gcc-too-new", "CUDA 12.4's nvcc with gcc 14 as the default compiler: host_config.h "
                           "stops every build ('gcc versions later than 13 are not supported').", "14").expect(
        "warn", None, ["extension-build-host-compiler-unsupported"])
    yield toolkit_with_gcc("host-nvcc-ccbin-supported", "gcc 14 is the default, but NVCC_CCBIN points nvcc at g++-13: "
                           "builds work.", "14", ccbin="/usr/bin/g++-13").expect(
        "ok", None, [], absent=["extension-build-host-compiler-unsupported"])

    # CuPy and JAX load CUDA at run time: the runtime of their major must be there.
    site = "/opt/venv/lib/python3.11/site-packages"
    s = h100_host("host-cupy-jax-with-cuda-wheels", "cupy-cuda12x and jax[cuda12] in a venv with the nvidia-*-cu12 wheels: "
                  "their CUDA 12 runtime is there.")
    s.package("cupy_cuda12x", "13.3.0").package("jax_cuda12_plugin", "0.4.35").package("jax_cuda12_pjrt", "0.4.35")
    yield s.cuda_wheel(site, cudnn=None).expect("ok", None, [], absent=["application-package-cuda-runtime-missing"])

    s = h100_host("host-cupy-cuda11x-among-cu12-wheels", "cupy-cuda11x in a venv whose NVIDIA wheels are all for CUDA 12, "
                  "with no CUDA 11 toolkit: its first GPU call fails to load libcudart.so.11.0.")
    s.package("cupy_cuda11x", "13.3.0")
    yield s.cuda_wheel(site, cudnn=None).expect("warn", None, ["application-package-cuda-runtime-missing"])

    # JAX's own version checks: plugin == jaxlib, minimum <= jaxlib <= jax.
    def jax_venv(name, description, jax="0.4.35", jaxlib="0.4.35", plugin="0.4.35", minimum="0.4.35"):
        s = h100_host(name, description)
        s.package("jax", jax).package("jaxlib", jaxlib).package("jax_cuda12_plugin", plugin).package("jax_cuda12_pjrt", plugin)
        s.file(f"{site}/jax/version.py", f'_version: str = "{jax}"\n_minimum_jaxlib_version: str = "{minimum}"\n')
        return s.cuda_wheel(site, cudnn=None)

    yield jax_venv("host-jax-cuda12-matched", "jax, jaxlib and the CUDA 12 plugin of one release (0.4.35): JAX uses the GPU.").expect(
        "ok", None, [], absent=["application-jax-plugin-version-mismatch", "application-jaxlib-outside-jax-range"])
    yield jax_venv("host-jax-plugin-behind-jaxlib", "The CUDA plugin at 0.7.2 with jax and jaxlib at 0.7.1 "
                   "('JAX plugin ... will not be used'): JAX runs on the CPU.",
                   jax="0.7.1", jaxlib="0.7.1", plugin="0.7.2", minimum="0.7.1").expect(
        "fail", "application", ["application-jax-plugin-version-mismatch"])
    yield jax_venv("host-jaxlib-too-old-for-jax", "jax 0.4.35 needs jaxlib >= 0.4.34; jaxlib 0.4.30 is installed: "
                   "`import jax` fails.", jaxlib="0.4.30", plugin="0.4.30", minimum="0.4.34").expect(
        "fail", "application", ["application-jaxlib-outside-jax-range"])

    s = h100_host("host-torch-cpu-build", "An H100 whose venv holds torch 2.5.1+cpu: 'Torch not compiled with CUDA enabled' (FC-36).")
    yield s.torch_venv(version="2.5.1+cpu", cuda=None).expect("warn", None, ["application-cpu-only-build"])

    # Images, checked with --image against the host named by --gpu and --host-driver.
    def image(name, description, runtime="12.4.131", major="12"):
        s = Snapshot(name, description)
        s.uname["release"] = "6.8.0-1015-aws"  # the build machine's, not the image's
        toolkit = "/usr/local/cuda-" + ".".join(runtime.split(".")[:2])
        s.file(f"{toolkit}/lib64/libcudart.so.{runtime}", tiny_elf(f"libcudart.so.{major}"))
        s.link(f"{toolkit}/lib64/libcudart.so.{major}", f"libcudart.so.{runtime}")
        s.link("/usr/local/cuda", toolkit.rsplit("/", 1)[1])
        s.file("/etc/ld.so.conf.d/000_cuda.conf", toolkit + "/lib64\n")
        s.file("/etc/ld.so.cache", ld_cache([(f"libcudart.so.{major}", f"{toolkit}/lib64/libcudart.so.{major}")]))
        s.env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
                      "CUDA_VERSION": runtime})
        return s

    host_550_h100 = {"image": True, "gpu": "2330", "host_driver": "550.54.15"}
    yield image("image-healthy-on-its-host", "A CUDA 12.4 image judged for an H100 host with driver 550.54.15: it will run.").expect(
        "ok", None, [], options=host_550_h100)

    yield image("image-runtime-newer-than-host", "A CUDA 13.0 image judged for a host with driver 550 (CUDA 12.4): it will not run.",
                runtime="13.0.48", major="13").expect(
        "fail", "image-config", ["require-unsatisfied", "driver-too-old-for-runtime"], options=host_550_h100)

    # In a RUN step of `docker build`, /.dockerenv is the build sandbox's, not the image's: an image whose
    # base sets no NVIDIA_VISIBLE_DEVICES (python:3.12 with a CUDA runtime) is not "a container started without a GPU".
    s = image("image-in-build-sandbox", "A CUDA runtime on a plain base image (no NVIDIA_* variables), judged inside a "
              "RUN step where /.dockerenv exists: healthy, the GPU is asked for at run time.")
    for variable in ("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "CUDA_VERSION"):
        del s.env[variable]
    s.file("/.dockerenv", "")
    yield s.expect("ok", None, [], absent=["container-gpu-not-requested", "container-gpu-not-injected"],
                   options=host_550_h100)

    s = compat_container("image-compat-on-geforce", "A CUDA 12.6 image with cuda-compat, judged for an RTX 4090 host with driver 535.", "535.183.01")
    # What the host and the toolkit would provide at run time is not in an image.
    host_only = ("/proc", "/sys", "/usr/lib/x86_64-linux-gnu/libcuda", "/usr/lib/x86_64-linux-gnu/libnvidia", "/usr/bin/nvidia")
    for path in [p for p in s.files if p.startswith(host_only)]:
        s.files.pop(path)
    s.links = {path: target for path, target in s.links.items() if not path.startswith(host_only)}
    s.devices.clear()
    yield s.expect("fail", "driver-libs", ["compat-on-unsupported-gpu"],
                   options={"image": True, "gpu": "2684", "host_driver": "535.183.01"})

    s = image("image-bakes-driver-libraries", "An image that installed libnvidia-compute-565: its own libcuda 565.57.01 is baked in.")
    s.driver_userspace("565.57.01", smi=False)
    yield s.expect("warn", None, ["image-carries-driver-libraries"], options={"image": True},
                   absent=["libcuda-not-found", "nvidia-smi-not-on-path"])

    s = image("image-baked-driver-on-other-host", "The same image judged for a host with driver 535.183.01: Driver/library version mismatch.")
    s.driver_userspace("565.57.01", smi=False)
    yield s.expect("fail", "driver-libs", ["driver-library-version-mismatch", "image-carries-driver-libraries",
                                           "runtime-relies-on-minor-version-compatibility", "require-unsatisfied-but-minor-compatible"],
                   options={"image": True, "gpu": "2330", "host_driver": "535.183.01"})

    s = image("image-require-contradicts-runtime", "A CUDA 12.4 image whose NVIDIA_REQUIRE_CUDA still says cuda>=11.8.")
    s.env["NVIDIA_REQUIRE_CUDA"] = "cuda>=11.8"
    yield s.expect("warn", None, ["image-require-contradicts-runtime"], options={"image": True})

    s = image("image-require-refused-by-host", "A CUDA 12.4 image (cuda>=12.4) judged for a host with driver 470: refused at start.")
    s.env["NVIDIA_REQUIRE_CUDA"] = "cuda>=12.4"
    yield s.expect("fail", "image-config", ["require-unsatisfied", "driver-too-old-for-runtime"],
                   options={"image": True, "gpu": "2330", "host_driver": "470.256.02"})

    s = image("image-stub-on-loader-path", "A CUDA image whose ENV LD_LIBRARY_PATH holds the toolkit's stubs (with a libcuda.so.1).")
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    s.file(stubs + "/libcuda.so", tiny_elf("libcuda.so.1")).link(stubs + "/libcuda.so.1", "libcuda.so")
    s.env["LD_LIBRARY_PATH"] = stubs
    yield s.expect("fail", "driver-libs", ["libcuda-is-stub", "libcuda-unversioned-is-stub"], options={"image": True})

    s = image("image-torch-for-rtx5090", "An image with torch cu124, judged for an RTX 5090 host on driver 570: no kernel image.")
    torch_archs = [(2, arch, 1, 7) for arch in (50, 60, 70, 75, 80, 86, 90)]
    yield s.torch_venv(fatbin=torch_archs).expect("fail", "application", ["application-no-kernel-image"],
                                                  options={"image": True, "gpu": "2b85", "host_driver": "570.133.20"})

    # What the driver answers a program (the driver probe, in a child).
    s = Snapshot("vm-pci-hidden-cuda-works", "A VM whose hypervisor hides the GPU's PCI function, while the driver's libcuda works.")
    s.plain_vm_pci().driver_userspace("550.54.15")
    s.cuda_probe(devices=[cuda_device()])
    yield s.expect("ok", None, [], info=["gpu-hidden-from-pci-view", "libcuda-unversioned-missing"], absent=["no-nvidia-gpu"])

    s = h100_host("host-cuinit-999-after-resume", "Every file looks right, yet cuInit returns 999 (as after a suspend and resume).")
    yield s.cuda_probe(init=999, init_name="CUDA_ERROR_UNKNOWN").expect("fail", "driver-libs", ["cuda-init-unknown-error"])

    s = h100_host("host-cuinit-os-error", "cuInit fails with CUDA_ERROR_OPERATING_SYSTEM (304).")
    yield s.cuda_probe(init=304, init_name="CUDA_ERROR_OPERATING_SYSTEM").expect("fail", "driver-libs", ["cuda-init-failed"])

    s = h100_host("host-cuda-probe-crashes", "Loading libcuda and calling cuInit kills the process with SIGSEGV.")
    yield s.cuda_probe(signal=11).expect("fail", "driver-libs", ["cuda-probe-crashed"])

    s = h100_host("host-cuda-probe-exits", "The libcuda found calls exit(1) inside cuInit.")
    yield s.cuda_probe(exit_code=1).expect("fail", "driver-libs", ["cuda-probe-exited"])

    s = h100_host("host-libcuda-not-loadable", "libcuda.so.1 resolves to a 32-bit file: dlopen refuses it.")
    yield s.cuda_probe(dlerror="libcuda.so.1: wrong ELF class: ELFCLASS32").expect(
        "fail", "driver-libs", ["cuda-probe-library-not-loadable"])

    s = h100_host("host-smoke-test-fails", "gpudoctor check --smoke: the kernel launch fails on the GPU.")
    yield s.cuda_probe(devices=[cuda_device()], smoke=[{"smoke": 0, "passed": False, "step": "cuLaunchKernel", "result": 719,
                                                        "name": "CUDA_ERROR_LAUNCH_FAILED"}]).expect(
        "fail", "driver-libs", ["smoke-test-failed"])

    s = h100_host("host-static-build", "A healthy H100 host checked by the static gpudoctor, which cannot load libcuda.")
    s.cuda_probe(unavailable="this gpudoctor is a static build, which cannot load the driver's libraries")
    yield s.expect("ok", None, [], info=["cuda-probe-unavailable", "libcuda-unversioned-missing"])

    s = h100_host("host-gpu-memory-repair-pending", "NVML: uncorrected ECC errors, with a row remapping and a page retirement pending.")
    s.cuda_probe(devices=[cuda_device()])
    s.nvml_probe(devices=[nvml_device(ecc_uncorrected_volatile=2, ecc_uncorrected_aggregate=2, remapped_rows_pending=True,
                                      retired_pages_pending=True)])
    yield s.expect("warn", None, ["gpu-uncorrected-ecc-errors", "gpu-row-remapping-pending", "gpu-retired-pages-pending"])

    s = h100_host("host-gpu-rows-exhausted", "NVML: a row remapping failed (no spare rows left) and the InfoROM is corrupt.")
    s.nvml_probe(devices=[nvml_device(remapped_rows_failed=True, ecc_uncorrected_aggregate=14, inforom_valid=False)])
    yield s.expect("fail", "hardware", ["gpu-row-remapping-failed", "gpu-inforom-corrupt"])


def main():
    names = []
    for scenario in scenarios():
        scenario.write()
        names.append(scenario.name)
    print(f"wrote {len(names)} snapshots to {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
