#!/usr/bin/env python3
"""A live check at the real driver's timings, without a GPU.

The first real hardware (an H200, driver 580.159.04; testdata/captures/
h200-580.159.04/README.md) measured where a live check's time goes: cuInit
185 ms in a fresh process, nvmlInit_v2 9 ms, `nvidia-smi --query-gpu` 25 ms,
plain `nvidia-smi` (the banner) 107 ms. This harness reproduces those on
any Linux machine, as root:

- the test fakes of libcuda.so.1 and libnvidia-ml.so.1
  (src/test_support/fake_driver.h, compiled here with cc), whose cuInit and
  nvmlInit_v2 sleep as long as the real ones took (FAKE_CUDA_INIT_MS,
  FAKE_NVML_INIT_MS);
- a fake nvidia-smi that answers the query and `--version` in 25 ms (the
  query's time: `--version` asks no GPU's state) and the banner in 107 ms;
- a private mount namespace (unshare -m) in which a tmpfs /proc/driver holds
  nvidia/version, so the nvidia module counts as loaded and nvidia-smi is
  asked, a tmpfs /sys/bus/pci/devices shows the H200 bound to nvidia, and a
  tmpfs /dev holds the NVIDIA nodes (their opens fail fast: there is no
  driver behind them) and the kernel's /dev/kmsg, as a host's /dev does.

It then times, each command in turn for several rounds, the medians:
the slowest child alone (`gpudoctor __child driver-probe cuda`: a process
that loads libcuda and waits for cuInit), the fake `nvidia-smi --query-gpu`,
and `check`, `check --no-probe` and `gpus` of every gpudoctor binary given
(before and after, in one run), and prints each against its yardstick.

With --watch READINGS it also times `gpus --watch 1`: the gap between two
readings less the sleep is what one reading costs.

usage: sudo tools/bench_live.py [--rounds N] [--watch READINGS] GPUDOCTOR [GPUDOCTOR ...]
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAKES = os.path.join(HERE, "..", "src", "test_support", "fake_driver.h")

# Milliseconds measured on the H200 (median wall time of whole processes).
CUINIT_MS, NVML_INIT_MS, SMI_QUERY_MS, SMI_BANNER_MS = 185, 9, 25, 107

FAKE_SMI = r"""#!/bin/sh
case "$1" in
--query-gpu=*) sleep {query}
  echo '0, 580.159.04, NVIDIA H200, GPU-b4ccbe75-473c-5774-2fc1-45c2f927e4a0, 00000000:00:06.0, 9.0, 143771, 615, Disabled, Enabled, Default' ;;
--version) sleep {query}
  printf 'NVIDIA-SMI version  : 580.159.04\nNVML version        : 580.159\nDRIVER version      : 580.159.04\nCUDA Version        : 13.0\n' ;;
"") sleep {banner}
  echo '| NVIDIA-SMI 580.159.04             Driver Version: 580.159.04     CUDA Version: 13.0     |' ;;
*) exit 2 ;;
esac
"""


def fake_source(name):
    """A fake library's C source, as the header holds it: R"( ... )"."""
    text = open(FAKES).read()
    match = re.search(name + r' = R"\((.*?)\)";', text, re.S)
    if not match:
        sys.exit(f"bench_live: {name} not found in {FAKES}")
    return match.group(1)


def build_fakes(work):
    lib = os.path.join(work, "lib")
    os.makedirs(lib)
    for source, soname in (("k_fake_libcuda_source", "libcuda.so.1"), ("k_fake_nvml_source", "libnvidia-ml.so.1")):
        c_file = os.path.join(work, soname + ".c")
        with open(c_file, "w") as handle:
            handle.write(fake_source(source))
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", os.path.join(lib, soname), c_file, "-Wl,-soname," + soname],
                       check=True)
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    smi = os.path.join(bin_dir, "nvidia-smi")
    with open(smi, "w") as handle:
        handle.write(FAKE_SMI.format(query=SMI_QUERY_MS / 1000, banner=SMI_BANNER_MS / 1000))
    os.chmod(smi, 0o755)
    return lib, bin_dir, smi


def pretend_driver():
    """In this (private) mount namespace: a loaded nvidia module and its nodes."""
    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "none", "/proc/driver"], check=True)
    os.makedirs("/proc/driver/nvidia/gpus/0000:00:06.0")
    with open("/proc/driver/nvidia/version", "w") as handle:
        handle.write("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U22)\n"
                     "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
    with open("/proc/driver/nvidia/gpus/0000:00:06.0/information", "w") as handle:
        handle.write("Model: \t\t NVIDIA H200\nBus Location: \t 0000:00:06.0\nDevice Minor: \t 0\n")
    # The H200 on the PCI bus, bound to nvidia, as sysfs shows it (the rest of the bus hidden).
    subprocess.run(["mount", "-t", "tmpfs", "none", "/sys/bus/pci/devices"], check=True)
    function = "/sys/bus/pci/devices/0000:00:06.0"
    os.makedirs(function)
    for name, value in (("vendor", "0x10de"), ("device", "0x2335"), ("class", "0x030200"), ("subsystem_vendor", "0x10de"),
                        ("subsystem_device", "0x18be"), ("numa_node", "-1"), ("current_link_speed", "32.0 GT/s PCIe"),
                        ("max_link_speed", "32.0 GT/s PCIe"), ("current_link_width", "16"), ("max_link_width", "16")):
        with open(os.path.join(function, name), "w") as handle:
            handle.write(value + "\n")
    os.symlink("../../../bus/pci/drivers/nvidia", os.path.join(function, "driver"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=755", "none", "/dev"], check=True)
    # The host's own /dev/kmsg (the kernel log), as the H200 host had it.
    for name, major, minor, mode in (("null", 1, 3, 0o666), ("zero", 1, 5, 0o666), ("urandom", 1, 9, 0o666),
                                     ("kmsg", 1, 11, 0o644), ("nvidiactl", 195, 255, 0o666), ("nvidia0", 195, 0, 0o666),
                                     ("nvidia-uvm", 510, 0, 0o666)):
        os.mknod("/dev/" + name, 0o20000 | mode, os.makedev(major, minor))
        os.chmod("/dev/" + name, mode)


def median_ms(argv, env, rounds):
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def watch_reading_ms(binary, env, readings):
    """`gpus --watch 1`: what each reading after the first costs, the gap
    between two readings' lines less the one-second sleep between them (the
    median), and the CPU time of gpudoctor and its children per reading."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    watch = subprocess.Popen([binary, "gpus", "--watch", "1", "--format", "json"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    arrivals = []
    for _ in range(readings):
        if not watch.stdout.readline():
            break
        arrivals.append(time.perf_counter())
    watch.terminate()
    watch.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if len(arrivals) < 3:
        sys.exit(f"bench_live: {binary} gpus --watch gave {len(arrivals)} readings")
    gaps = [(later - earlier) * 1000 - 1000 for earlier, later in zip(arrivals, arrivals[1:])]
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return statistics.median(gaps), cpu / len(arrivals)


def inside(args):
    work = tempfile.mkdtemp(prefix="gpudoctor-bench-live-")
    lib, bin_dir, smi = build_fakes(work)
    pretend_driver()
    env = dict(os.environ, LD_LIBRARY_PATH=lib, PATH=bin_dir + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
               FAKE_CUDA_INIT_MS=str(CUINIT_MS), FAKE_NVML_INIT_MS=str(NVML_INIT_MS), FAKE_CUDA="ok4", FAKE_NVML="ok")
    env.pop("CUDA_VISIBLE_DEVICES", None)
    query = [smi, "--query-gpu=index,driver_version", "--format=csv,noheader,nounits"]
    print(f"fake timings: cuInit {CUINIT_MS} ms, nvmlInit {NVML_INIT_MS} ms, nvidia-smi --query-gpu {SMI_QUERY_MS} ms, "
          f"banner {SMI_BANNER_MS} ms; {args.rounds} rounds, medians")
    for binary in args.gpudoctor:
        binary = os.path.abspath(binary)
        measured = {}
        # In turn, round by round, so that a busy moment of the machine hits all alike.
        commands = {"slowest child (__child driver-probe cuda)": [binary, "__child", "driver-probe", "cuda"],
                    "nvidia-smi --query-gpu": query,
                    "check": [binary, "check"],
                    "check --no-probe": [binary, "check", "--no-probe"],
                    "gpus": [binary, "gpus"]}
        for _ in range(args.rounds):
            for name, argv in commands.items():
                measured.setdefault(name, []).append(median_ms(argv, env, 1))
        ms = {name: statistics.median(values) for name, values in measured.items()}
        child, smi_ms = ms["slowest child (__child driver-probe cuda)"], ms["nvidia-smi --query-gpu"]
        print(f"\n{binary}")
        for name, value in ms.items():
            print(f"  {name:44} {value:7.1f} ms")
        print(f"  check / slowest child                        {ms['check'] / child:5.2f}x  (target <= 1.15)")
        print(f"  check --no-probe / nvidia-smi --query-gpu    {ms['check --no-probe'] / smi_ms:5.2f}x  (target <= 1.2)")
        print(f"  gpus / nvidia-smi --query-gpu                {ms['gpus'] / smi_ms:5.2f}x  (target <= 1.2)")
        if args.watch:
            reading, cpu = watch_reading_ms(binary, env, args.watch)
            print(f"  gpus --watch: a later reading takes {reading:.1f} ms (median of {args.watch - 1} gaps less the 1 s sleep); "
                  f"CPU {cpu:.1f} ms a reading, children included")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--watch", type=int, default=0, metavar="READINGS",
                        help="also time this many readings of `gpus --watch 1` (one NVML session, or a child each)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("gpudoctor", nargs="+")
    args = parser.parse_args()
    if args.inside:
        return inside(args)
    if os.geteuid() != 0:
        sys.exit("bench_live: run as root (it makes a private mount namespace with a pretend driver)")
    # Everything pretended stays in a mount namespace of its own.
    return subprocess.run(["unshare", "--mount", sys.executable, os.path.abspath(__file__), "--inside",
                           "--rounds", str(args.rounds), "--watch", str(args.watch)] + args.gpudoctor).returncode


if __name__ == "__main__":
    sys.exit(main())
