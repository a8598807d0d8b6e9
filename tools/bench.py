#!/usr/bin/env python3
"""Benchmarks gpudoctor on this machine, in one run: medians over repeated
runs and ratios against references measured in the same run (/usr/bin/python3
-c pass, a bare interpreter's start; libtree and lddtree where installed),
never absolute targets alone.

Usage: bench.py path/to/gpudoctor [more binaries to compare...] [--runs N]
       (after ninja -C build write_binary; write_binary is taken from beside the first)

Prints a markdown table for docs/benchmarks.md. Snapshots of 1, 8, 64 and
512 GPUs and Python environments of 10,000 and 100,000 files are generated
in a temporary directory (tools/make_snapshots.py's building blocks).
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from scenarios import binaries  # noqa: E402
from scenarios.snapshot import Snapshot, cuda_device, nvml_device  # noqa: E402


def median_seconds(argv, runs, env=None):
    return interleaved_medians([argv], runs, env)[0]


def interleaved_medians(argvs, runs, env=None):
    """Medians of each command, run in turn (A B C A B C ...) so that a machine
    that drifts over the run weighs on every command alike."""
    times = [[] for _ in argvs]
    for _ in range(runs):
        for i, argv in enumerate(argvs):
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def perf_rounds(argvs, rounds=6, repeats=60):
    """Mean elapsed seconds of each command over rounds of `perf stat -r`,
    the commands in turn within each round: finer than a Python harness,
    whose own fork and exec cost as much as libtree's whole run. None
    where perf cannot count here."""
    if not shutil.which("perf"):
        return None
    sums = [0.0] * len(argvs)
    for _ in range(rounds):
        for i, argv in enumerate(argvs):
            result = subprocess.run(["perf", "stat", "-r", str(repeats)] + argv, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            match = re.search(r"([0-9.]+) \+- [0-9.]+ seconds time elapsed", result.stderr)
            if not match:
                return None
            sums[i] += float(match.group(1))
    return [total / rounds for total in sums]


def peak_mb(argv, env=None):
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def gpu_snapshot(work, count):
    """An HGX-like host with `count` H100s, every one claimed, with nodes and driver answers."""
    s = Snapshot(f"bench-{count}-gpus", f"{count} GPUs").plain_vm_pci()
    s.nvidia_driver("550.90.07")
    buses = []
    for index in range(count):
        domain, bus = divmod(index, 200)
        bdf = f"{domain:04x}:{bus + 0x10:02x}:00.0"
        buses.append(f"{bus + 0x10:02X}")
        s.pci(bdf, "10de", "2330", "030200", driver="nvidia", numa=str(index % 2))
        s.claimed(bdf, "NVIDIA H100 80GB HBM3", index)
    s.driver_nodes(range(count), version="550.90.07")
    s.cuda_probe(devices=[cuda_device(i, b) for i, b in enumerate(buses)], mapped="/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07")
    s.nvml_probe(driver="550.90.07", devices=[nvml_device(i, b) for i, b in enumerate(buses)])
    s.expect("ok", None, [])
    s.write(work)
    return os.path.join(work, s.name)


def python_env(work, files):
    """A venv whose site-packages holds `files` files: torch, and many small packages."""
    root = os.path.join(work, f"env-{files}")
    site = os.path.join(root, "opt/venv/lib/python3.11/site-packages")
    os.makedirs(os.path.join(site, "torch"), exist_ok=True)
    with open(os.path.join(site, "torch/version.py"), "w") as handle:
        handle.write("__version__ = '2.5.1+cu124'\ncuda = '12.4'\n")
    per_package = 10
    for package in range(files // per_package):
        directory = os.path.join(site, f"pkg{package}")
        os.makedirs(directory, exist_ok=True)
        for index in range(per_package - 1):
            open(os.path.join(directory, f"m{index}.py"), "w").close()
        os.makedirs(os.path.join(site, f"pkg{package}-1.0.dist-info"), exist_ok=True)
    return root


def main():
    args = sys.argv[1:]
    runs = 15
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    binaries_measured = [os.path.abspath(path) for path in args]
    writer = os.path.join(os.path.dirname(binaries_measured[0]), "write_binary")  # built beside the first
    binaries.use_writer(writer)
    names = [f"`{os.path.relpath(path)}`" for path in binaries_measured]
    work = tempfile.mkdtemp(prefix="gpudoctor-bench-")
    try:
        # A bare interpreter: the system's, whose start is what a user's Python costs; the harness's own
        # (a pyenv or venv Python with its site packages) is slower and flatters every ratio.
        interpreter = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
        python = median_seconds([interpreter, "-c", "pass"], runs)
        rows = []  # (label, [seconds per binary], [peak MB per binary])
        live = [[path, "check"] for path in binaries_measured]
        rows.append(("`check` live, this machine", interleaved_medians(live, runs), [peak_mb(argv) for argv in live]))
        for count in (1, 8, 64, 512):
            snapshot = gpu_snapshot(work, count)
            argvs = [[path, "check", "--replay", snapshot] for path in binaries_measured]
            rows.append((f"`check --replay` {count} GPUs", interleaved_medians(argvs, runs), [peak_mb(argv) for argv in argvs]))
        env = dict(os.environ)
        for files in (10000, 100000):
            root = python_env(work, files)
            env["VIRTUAL_ENV"] = "/opt/venv"
            argvs = [[path, "check", "--root", root] for path in binaries_measured]
            rows.append((f"`check --root`, Python environment of {files:,} files", interleaved_medians(argvs, max(3, runs // 3), env),
                         [peak_mb(argv, env) for argv in argvs]))
        print(f"`{interpreter} -c pass` (the reference): {python * 1000:.1f} ms")
        print()
        print("| run | " + " | ".join(f"{name} | ratio | peak" for name in names) + " |")
        print("|---|" + "---|---|---|" * len(names))
        for label, seconds, memory in rows:
            cells = [f"{t * 1000:.1f} ms | {t / python:.2f} | {m:.1f} MB" for t, m in zip(seconds, memory)]
            print(f"| {label} | " + " | ".join(cells) + " |")
        targets = [path for path in ("/usr/lib/x86_64-linux-gnu/libcudnn_adv.so.9", "/usr/bin/clang-14",
                                     "/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1", "/usr/bin/gdb") if os.path.exists(path)]
        peers = [(name, path) for name, path in ((name, shutil.which(name)) for name in ("libtree", "lddtree")) if path]
        print()
        print("`resolve`: " + ("means of six rounds of `perf stat -r 60`, the commands in turn" if shutil.which("perf")
                              else "medians (install linux-perf for finer figures)") + "; lddtree: medians")
        print()
        print("| `resolve` on | " + " | ".join(names + [name for name, _ in peers]) + " | ratios to " +
              (peers[0][0] if peers else "-") + " |")
        print("|---|" + "---|" * (len(names) + len(peers)) + "---|")
        for target in targets:
            argvs = [[path, "resolve", target] for path in binaries_measured] + [[path, target] for _, path in peers]
            timed = [argv for argv in argvs if "lddtree" not in argv[0]]  # lddtree, Python, is 70 ms: a median is fine
            rounds = perf_rounds(timed)
            medians = interleaved_medians(argvs, runs)
            seconds = [rounds[timed.index(argv)] if rounds and argv in timed else median for argv, median in zip(argvs, medians)]
            ours, theirs = seconds[:len(names)], seconds[len(names):]
            ratios = ", ".join(f"{t / theirs[0]:.2f}×" for t in ours) if theirs else ""
            print(f"| {os.path.basename(target)} | " + " | ".join(f"{t * 1000:.2f} ms" for t in seconds) + f" | {ratios} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
