#!/usr/bin/env python3
"""Checks that `gpudoctor resolve` agrees with glibc's own `ld.so --list` on
every ELF file under the given directories (default: the whole system's
program and library directories). Prints each disagreement and ends with
"N passed, N failed".

usage: compare_ld_so.py GPUDOCTOR [DIR...]
"""
import json
import os
import re
import subprocess
import sys

LD_SO = "/lib64/ld-linux-x86-64.so.2"
LINE = re.compile(r"^\s*(\S+) => (not found|\S+)")


def is_elf64(path):
    try:
        with open(path, "rb") as handle:
            header = handle.read(20)
    except OSError:
        return False
    # 64-bit, little-endian, x86-64, executable or shared object
    return (len(header) == 20 and header[:4] == b"\x7fELF" and header[4] == 2 and header[5] == 1
            and header[16] in (2, 3) and header[18:20] == b"\x3e\x00")


def loader_view(path):
    result = subprocess.run([LD_SO, "--list", path], capture_output=True, text=True, timeout=30)
    if result.returncode != 0 and "not found" not in result.stdout:
        return None  # static, or ld.so refuses it: nothing to compare
    view = {}
    for line in result.stdout.splitlines():
        match = LINE.match(line)
        if match:
            view[match.group(1)] = None if match.group(2) == "not found" else match.group(2)
    return view


def our_view(gpudoctor, path):
    result = subprocess.run([gpudoctor, "resolve", path, "--format", "json"], capture_output=True, text=True, timeout=30)
    if result.returncode not in (0, 1):
        return "error: " + result.stderr.strip()
    view = {}
    for library in json.loads(result.stdout)["libraries"]:
        if library["via"] == "already-loaded" or library["name"] in view:
            continue
        view[library["name"]] = library["path"]
    return view


def main():
    gpudoctor = sys.argv[1]
    roots = sys.argv[2:] or ["/usr/bin", "/usr/sbin", "/usr/lib/x86_64-linux-gnu", "/usr/libexec"]
    passed = failed = 0
    for root in roots:
        for directory, _, names in os.walk(root):
            for name in sorted(names):
                path = os.path.join(directory, name)
                if os.path.islink(path) or not is_elf64(path):
                    continue
                theirs = loader_view(path)
                if theirs is None:
                    continue
                ours = our_view(gpudoctor, path)
                # ld.so lists the interpreter and vdso without "=>"; so do we not.
                if ours == theirs:
                    passed += 1
                else:
                    failed += 1
                    print(f"DIFFERENT {path}\n  ld.so:     {theirs}\n  gpudoctor: {ours}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
