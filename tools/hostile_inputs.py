#!/usr/bin/env python3
"""Runs gpudoctor on the hostile inputs of the hardening issue and prints,
for each, the exit status, wall time and peak memory (GNU time's maximum
resident set size). A benchmark to run and report, not a test: timings
depend on the machine.

Usage: hostile_inputs.py path/to/gpudoctor [WORK_DIR]
"""
import gzip
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile


def run(label, argv, env=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + argv, env=full_env, capture_output=True, text=True,
                            errors="replace")
    seconds, kilobytes = result.stderr.strip().splitlines()[-1].split()
    print(f"{label:<58} exit {result.returncode}  {float(seconds):6.2f} s  {int(kilobytes) / 1024:7.1f} MB")


def snapshot(work, name, document):
    directory = os.path.join(work, name)
    os.makedirs(os.path.join(directory, "root"), exist_ok=True)
    with open(os.path.join(directory, "snapshot.json"), "w") as handle:
        handle.write(document)
    return directory


def ld_cache_all_pointing_at_one_string(entries=50000, string_size=20 << 20):
    header = b"glibc-ld.so.cache1.1" + struct.pack("<II", entries, 0) + bytes([2]) + bytes(19)
    table_end = 48 + 24 * entries
    table = b"".join(struct.pack("<iIIIQ", 0x0303, table_end, table_end, 0, 0) for _ in range(entries))
    return header + table + b"x" * string_size + b"\0"


def gzip_bomb(path, member_size):
    """A snapshot .tar.gz of a few hundred KB whose one member inflates to member_size bytes of zeros."""
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as archive:
        document = json.dumps({"schema": "gpudoctor-snapshot/1"}).encode()
        info = tarfile.TarInfo("s/snapshot.json")
        info.size = len(document)
        archive.addfile(info, io.BytesIO(document))
        info = tarfile.TarInfo("s/root/zeros")
        info.size = member_size
        archive.addfile(info, io.BytesIO(bytes(member_size)))
    with open(path, "wb") as handle:
        handle.write(gzip.compress(packed.getvalue(), 9))
    return path


def main():
    gpudoctor = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="gpudoctor-hostile-")
    os.makedirs(work, exist_ok=True)
    root = os.path.join(work, "root")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "etc"))
    with open(os.path.join(root, "etc/ld.so.cache"), "wb") as handle:
        handle.write(ld_cache_all_pointing_at_one_string())
    release = os.uname().release
    os.makedirs(os.path.join(root, "lib/modules", release))
    with open(os.path.join(root, "lib/modules", release, "modules.dep"), "w") as handle:
        handle.write("\n" * (32 << 20))

    run("baseline: check on this machine", [gpudoctor, "check"])
    run("--root: 20 MB ld.so.cache string x 50,000, 32 MB modules.dep", [gpudoctor, "check", "--root", root])
    run("LD_LIBRARY_PATH of 120 KB, 30,000 repeated elements", [gpudoctor, "check"],
        {"LD_LIBRARY_PATH": ":".join(["/usr/lib"] * 30000)[:120000]})
    run("LD_LIBRARY_PATH of 120 KB, 15,000 distinct elements", [gpudoctor, "check"],
        {"LD_LIBRARY_PATH": ":".join(f"/d{i}" for i in range(15000))[:120000]})
    run("NVIDIA_VISIBLE_DEVICES of 120 KB of commas", [gpudoctor, "check"], {"NVIDIA_VISIBLE_DEVICES": "," * 120000})
    env = {f"V{i}": "" for i in range(3_500_000)}
    run("replay: snapshot.json with 3.5 M variables (59 MB)",
        [gpudoctor, "check", "--replay", snapshot(work, "many-env", json.dumps({"format": "gpudoctor-snapshot/1", "env": env}))])
    run("replay: a 60 MB NVIDIA_VISIBLE_DEVICES",
        [gpudoctor, "check", "--replay", snapshot(work, "long-env", json.dumps(
            {"format": "gpudoctor-snapshot/1", "env": {"NVIDIA_VISIBLE_DEVICES": "," * (60 << 20)}}))])
    run("replay: a 200 KB .tar.gz whose member inflates to 200 MB",
        [gpudoctor, "check", "--replay", gzip_bomb(os.path.join(work, "bomb.tar.gz"), 200 << 20)])
    run("replay: a .tar.gz whose member inflates to 60 MB (under the cap)",
        [gpudoctor, "check", "--replay", gzip_bomb(os.path.join(work, "big.tar.gz"), 60 << 20)])
    rules = os.path.join(work, "rules")
    os.makedirs(rules, exist_ok=True)
    with open(os.path.join(rules, "huge.json"), "wb") as handle:
        handle.truncate(1 << 30)
    run("--rules with a 1 GB (sparse) file", [gpudoctor, "check", "--rules", rules])
    print(f"(inputs left in {work})")


if __name__ == "__main__":
    main()
