"""The binary files scenarios need (ELF shared objects with SONAME,
DT_NEEDED, RUNPATH, notes and .nv_fatbin; fatbin containers; kernel modules'
.modinfo; Go programs' .go.buildinfo; ld.so.cache), written by the one writer per format there is:
src/test_support/binary_writer.cpp, asked through the build's write_binary
helper. make_snapshots.py (or bench.py) names the helper with use_writer()."""

import json
import os
import subprocess

_helper = None
_answers = {}


def use_writer(path):
    """Starts the write_binary helper at path; every request below goes to it."""
    global _helper
    if not os.access(path, os.X_OK):
        raise SystemExit(f"scenarios: no write_binary helper at {path} (ninja -C build write_binary builds it)")
    _helper = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _write(request):
    """The bytes of one file; identical requests are answered once."""
    line = json.dumps(request, sort_keys=True)
    if line not in _answers:
        if _helper is None:
            raise SystemExit("scenarios: use_writer(PATH) must name the write_binary helper first")
        _helper.stdin.write(line.encode() + b"\n")
        _helper.stdin.flush()
        header = _helper.stdout.readline()
        if not header:
            raise SystemExit(f"scenarios: write_binary refused {line}")
        _answers[line] = _helper.stdout.read(int(header))
    return _answers[line]


def _entries(entries):
    return [list(entry) for entry in entries]


def tiny_elf(soname, needed=(), runpath=None, rpath=None, machine=62, fwd_note=None, fatbin=None):
    """A minimal 64-bit little-endian shared object: what the dynamic loader
    (and gpudoctor) reads, and nothing else; with fwd_note (cuda-compat's
    .note.cuda.fwd_compatibility JSON) or fatbin, also the section that
    carries it."""
    return _write({"format": "elf", "soname": soname, "needed": list(needed), "runpath": runpath, "rpath": rpath,
                   "machine": machine, "fwd_note": None if fwd_note is None else json.dumps(fwd_note),
                   "fatbin": None if fatbin is None else _entries(fatbin)})


def go_program(go, main_path, module=None, ldflags=None, dependencies=()):
    """A Go program whose only content is its build information, as `go
    version -m` reads it: the Go release, the main package, its module
    (path, version), the modules built in ((path, version) or (path,
    version, replacement path, its version)) and -ldflags."""
    lines = [f"path\t{main_path}"]
    if module:
        lines.append(f"mod\t{module[0]}\t{module[1]}\t")
    for dependency in dependencies:
        lines.append(f"dep\t{dependency[0]}\t{dependency[1]}\th1:x=")
        if len(dependency) == 4:
            lines.append(f"=>\t{dependency[2]}\t{dependency[3]}\th1:y=")
    if ldflags:
        lines.append(f"build\t-ldflags=\"{ldflags}\"")
    lines.append("build\tCGO_ENABLED=1")
    return _write({"format": "go_program", "go": go, "modules": "\n".join(lines) + "\n"})


def tiny_module(modinfo, signed=False):
    """A minimal kernel module (ET_REL) with a .modinfo section of NUL-ended
    key=value strings, as modinfo(8) and gpudoctor read it; signed, with a
    module signature appended as the kernel's sign-file appends one."""
    request = {"format": "module", "modinfo": [[key, str(value)] for key, value in modinfo.items()]}
    if signed:
        request["signed"] = True
    return _write(request)


def fatbin_elf(soname, entries, damaged=False):
    """A shared library whose only content is a .nv_fatbin section of
    (kind, arch, major, minor) entries: kind 1 PTX, 2 SASS (what the
    application layer reads of libtorch_cuda.so: section and fatbin headers,
    never code). The soname names the file in the recipe only."""
    del soname
    return _write({"format": "fatbin_elf", "entries": _entries(entries), "damaged": damaged})


def pci_vpd(identifier, read_only):
    """A PCI function's VPD as sysfs' vpd file holds it: the identifier string and
    a VPD-R resource of (keyword, value) pairs, checksummed by its RV keyword."""
    return _write({"format": "pci_vpd", "identifier": identifier, "read_only": [list(pair) for pair in read_only]})


def ld_cache(entries, flags=0x0303):
    """/etc/ld.so.cache in glibc's new format for (soname, path) pairs, all
    of one architecture (x86-64's flags 0x0303; aarch64's 0x0a03), in the
    given order."""
    return _write({"format": "ld_cache", "entries": [list(entry) for entry in entries], "flags": flags})


# The kernel's own flags (scripts/Makefile.modinst): what a .ko.xz, .ko.zst or
# .ko.gz installed by modules_install or DKMS really is.
_COMPRESSORS = {
    "xz": ["xz", "--check=crc32", "--lzma2=dict=1MiB", "-c"],
    "zst": ["zstd", "-T0", "-q", "-c"],
    "gz": ["gzip", "-n", "-c"],
}


def compressed_module(modinfo, suffix, signed=False, xz_check=None):
    """tiny_module(modinfo) compressed by the real xz, zstd or gzip (suffix
    "xz", "zst" or "gz"), as modules_install and DKMS compress modules;
    xz_check: another check than the kernel's crc32 ("crc64": plain `xz`,
    as DKMS before 3.0.13 ran it)."""
    command = _COMPRESSORS[suffix]
    if xz_check:
        command = ["xz", f"--check={xz_check}", "-c"]
    try:
        return subprocess.run(command, input=tiny_module(modinfo, signed), stdout=subprocess.PIPE, check=True).stdout
    except FileNotFoundError:
        raise SystemExit(f"scenarios: {command[0]} is not installed (Debian: xz-utils, zstd, gzip)")
