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


def snapshot_archive(path, add_members):
    """A snapshot .tar.gz at path: snapshot.json, then what add_members(archive) adds under s/."""
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as archive:
        document = json.dumps({"schema": "gpudoctor-snapshot/1"}).encode()
        info = tarfile.TarInfo("s/snapshot.json")
        info.size = len(document)
        archive.addfile(info, io.BytesIO(document))
        add_members(archive)
    with open(path, "wb") as handle:
        handle.write(gzip.compress(packed.getvalue(), 9))
    return path


def gzip_bomb(path, member_size):
    """A snapshot .tar.gz of a few hundred KB whose one member inflates to member_size bytes of zeros."""
    def add(archive):
        info = tarfile.TarInfo("s/root/zeros")
        info.size = member_size
        archive.addfile(info, io.BytesIO(bytes(member_size)))
    return snapshot_archive(path, add)


def deep_link_archive(path, depth=1500):
    """A .tar.gz of about 30 KB whose top directories are links into a tree
    depth directories deep: every path the checks ask about walks it."""
    def add(archive):
        name = "s/root"
        for _ in range(depth):
            name += "/d"
            info = tarfile.TarInfo(name)
            info.type = tarfile.DIRTYPE
            archive.addfile(info)
        for top in ("usr", "lib", "lib64", "etc", "sys", "proc", "dev", "opt", "run", "var", "bin", "sbin", "home", "tmp"):
            info = tarfile.TarInfo("s/root/" + top)
            info.type = tarfile.SYMTYPE
            info.linkname = "/d" * depth
            archive.addfile(info)
    return snapshot_archive(path, add)


def conda_meta_root(work, prefixes=3, records=80, record_size=8 << 20):
    """Conda prefixes on PATH whose CUDA libraries carry only their major,
    each beside records of CUDA packages of record_size bytes that list
    other files: every library's version is looked up in conda-meta."""
    root = os.path.join(work, "conda-root")
    shutil.rmtree(root, ignore_errors=True)
    entry = '"lib/not-this-one-' + "x" * 24 + '.so", '
    body = ('{"name": "x", "files": [' + entry * ((record_size - 64) // len(entry)) + '"lib/last.so"]}').encode()
    paths = []
    for p in range(prefixes):
        prefix = os.path.join(root, f"opt/conda{p}")
        os.makedirs(os.path.join(prefix, "bin"))
        os.makedirs(os.path.join(prefix, "conda-meta"))
        os.makedirs(os.path.join(prefix, "lib"))
        open(os.path.join(prefix, "bin/python3"), "w").close()
        for library in ("libcudart.so.12", "libcublas.so.12", "libcufft.so.11", "libcurand.so.10", "libcusparse.so.12"):
            open(os.path.join(prefix, "lib", library), "w").close()
        for r in range(records):
            with open(os.path.join(prefix, "conda-meta", f"cuda-part{r}-12.4.{r}-0.json"), "wb") as handle:
                handle.write(body)
        paths.append(f"/opt/conda{p}")
    return root, {"PATH": ":".join(p + "/bin" for p in paths) + ":/usr/bin:/bin",
                  "LD_LIBRARY_PATH": ":".join(p + "/lib" for p in paths)}


def cdi_roots(work, scale=1.0):
    """/etc/cdi of three kinds: 4 MiB of short scalars, 256 devices that all
    alias one 90,000-entry mount list, and 3,000 specs of another vendor
    (each times scale)."""
    roots = {}
    for name in ("scalars", "aliases", "vendors"):
        roots[name] = os.path.join(work, "cdi-" + name)
        shutil.rmtree(roots[name], ignore_errors=True)
        os.makedirs(os.path.join(roots[name], "etc/cdi"))
    scalars = "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\nx: [" + "1," * int(((4 << 20) // 2 - 64) * scale) + "1]\n"
    with open(os.path.join(roots["scalars"], "etc/cdi/nvidia.yaml"), "w") as handle:
        handle.write(scalars)
    # 90,000 scalars: under the node bound, so every device's alias is walked.
    aliases = ["cdiVersion: 0.5.0", "kind: nvidia.com/gpu", "mounts: &m [" + "a," * int(90000 * scale) + "a]"]
    aliases += ["devices:"] + [f"  - {{name: d{i}, containerEdits: {{mounts: *m}}}}" for i in range(256)]
    with open(os.path.join(roots["aliases"], "etc/cdi/nvidia.yaml"), "w") as handle:
        handle.write("\n".join(aliases) + "\n")
    for i in range(int(3000 * scale)):
        with open(os.path.join(roots["vendors"], f"etc/cdi/vendor-{i:05}.yaml"), "w") as handle:
            handle.write("cdiVersion: 0.6.0\nkind: example.com/fpga\ndevices:\n" + "".join(f"  - name: f{j}\n" for j in range(200)))
    return roots


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
    run("replay: top directories linked into a tree 1,500 deep",
        [gpudoctor, "check", "--replay", deep_link_archive(os.path.join(work, "deep.tar.gz"))])
    rules = os.path.join(work, "rules")
    os.makedirs(rules, exist_ok=True)
    with open(os.path.join(rules, "huge.json"), "wb") as handle:
        handle.truncate(1 << 30)
    run("--rules with a 1 GB (sparse) file", [gpudoctor, "check", "--rules", rules])
    conda_root, conda_env = conda_meta_root(work)
    run("--root: 3 conda prefixes, 80 CUDA records of 8 MiB each", [gpudoctor, "check", "--root", conda_root], conda_env)
    for name, cdi_root in cdi_roots(work).items():
        run(f"--root: /etc/cdi, {name}", [gpudoctor, "check", "--root", cdi_root])
    print(f"(inputs left in {work})")


if __name__ == "__main__":
    main()
