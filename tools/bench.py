#!/usr/bin/env python3
"""Benchmarks gpudoctor on this machine, in one run: medians over repeated
runs and ratios against references measured in the same run (python3 -c
pass; libtree and lddtree where installed), never absolute targets alone.

Usage: bench.py path/to/gpudoctor [--runs N]   (after ninja -C build write_binary)

Prints a markdown table for docs/benchmarks.md. Snapshots of 1, 8, 64 and
512 GPUs and Python environments of 10,000 and 100,000 files are generated
in a temporary directory (tools/make_snapshots.py's building blocks).
"""
import os
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
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


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
    gpudoctor = os.path.abspath(sys.argv[1])
    binaries.use_writer(os.path.join(os.path.dirname(gpudoctor), "write_binary"))  # built beside it
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 15
    work = tempfile.mkdtemp(prefix="gpudoctor-bench-")
    try:
        python = median_seconds([sys.executable, "-c", "pass"], runs)
        rows = [("`python3 -c pass` (reference)", python, None, None)]
        live = median_seconds([gpudoctor, "check"], runs)
        rows.append(("`check` live, this machine", live, live / python, peak_mb([gpudoctor, "check"])))
        for count in (1, 8, 64, 512):
            snapshot = gpu_snapshot(work, count)
            argv = [gpudoctor, "check", "--replay", snapshot]
            seconds = median_seconds(argv, runs)
            rows.append((f"`check --replay` {count} GPUs", seconds, seconds / python, peak_mb(argv)))
        env = dict(os.environ)
        for files in (10000, 100000):
            root = python_env(work, files)
            env["VIRTUAL_ENV"] = "/opt/venv"
            argv = [gpudoctor, "check", "--root", root]
            seconds = median_seconds(argv, max(3, runs // 3), env)
            rows.append((f"`check --root` with a Python environment of {files:,} files", seconds, seconds / python,
                         peak_mb(argv, env)))
        print("| run | median | ratio to `python3 -c pass` | peak memory |")
        print("|---|---|---|---|")
        for label, seconds, ratio, memory in rows:
            print(f"| {label} | {seconds * 1000:.1f} ms | {'' if ratio is None else f'{ratio:.2f}'} | "
                  f"{'' if memory is None else f'{memory:.1f} MB'} |")
        targets = [path for path in ("/usr/lib/x86_64-linux-gnu/libcudnn_adv.so.9", "/usr/bin/clang-14",
                                     "/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1", "/usr/bin/gdb") if os.path.exists(path)]
        peers = [(name, shutil.which(name)) for name in ("libtree", "lddtree")]
        print()
        print("| `resolve` on | gpudoctor | " + " | ".join(f"{name}" for name, path in peers if path) + " | ratios |")
        print("|---|---|" + "---|" * sum(1 for _, path in peers if path) + "---|")
        for target in targets:
            ours = median_seconds([gpudoctor, "resolve", target], runs)
            cells, ratios = [], []
            for name, path in peers:
                if not path:
                    continue
                theirs = median_seconds([path, target], runs)
                cells.append(f"{theirs * 1000:.2f} ms")
                ratios.append(f"{ours / theirs:.2f}× {name}")
            print(f"| {os.path.basename(target)} | {ours * 1000:.2f} ms | " + " | ".join(cells) + " | " + ", ".join(ratios) + " |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
