#!/usr/bin/env python3
"""The hostile inputs of the third hardening round, each at two sizes ten
times apart, run by every gpudoctor named: what each costs (CPU seconds,
peak memory) and how that grows with the input (10x over 1x). A benchmark
to run and report in docs/benchmarks.md, not a test: timings depend on the
machine.

Usage: hostile_growth.py WORK_DIR [LABEL=]GPUDOCTOR [[LABEL=]GPUDOCTOR...]

One binary's build directory must hold write_binary and the generated
scenarios (ninja -C build write_binary scenarios): they make the ELF files
and the CuPy venv. Inputs are built once, under WORK_DIR, and reused.
"""
import json
import os
import shutil
import subprocess
import sys
import time

import hostile_inputs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios"))
import binaries  # noqa: E402

RELEASE = os.uname().release
LIMIT_S = 120


def measure(argv, env=None):
    """(exit, CPU seconds, peak MB) of one run: CPU from the kernel's account
    of the child (wait4, to the microsecond); exit None past LIMIT_S."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    # GNU time reports the peak memory: a child forked from this Python
    # process would count the interpreter's pages in its own maximum.
    peak_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"hostile-growth-{os.getpid()}.peak")
    child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak_file] + argv, env=full_env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + LIMIT_S
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            child.kill()
            os.wait4(child.pid, 0)
            return None, float(LIMIT_S), 0.0
        time.sleep(0.005)
    child.returncode = os.waitstatus_to_exitcode(status)
    with open(peak_file) as handle:
        kilobytes = int(handle.read().strip().splitlines()[-1])
    # wait4 counts what time's own child used: it waited for it.
    return child.returncode, usage.ru_utime + usage.ru_stime, kilobytes / 1024


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


# The directories the kernel-module probe looks in for nvidia.ko, then
# Ubuntu-style kernel/nvidia-<branch> ones: 32 in all.
MODULE_DIRS = ["updates/dkms", "updates", "extra", "kernel/drivers/video", "kernel/drivers/gpu/drm/nvidia", "misc",
               "video", "kernel/nvidia", "extra/nvidia", "weak-updates", "weak-updates/nvidia"]
MODULE_DIRS += [f"kernel/nvidia-{500 + i}" for i in range(32 - len(MODULE_DIRS))]
COMPRESSORS = {"xz": ["xz", "-T1", "-c"], "zst": ["zstd", "-q", "-1", "-c"], "gz": ["gzip", "-c"]}


def installed_modules(work, name, module_bytes, directories, suffixes, padding):
    """A root whose module directories each hold nvidia.ko.<suffix> for each
    suffix: a real .modinfo, padded by padding(n) to module_bytes."""
    root = fresh(os.path.join(work, f"{name}-{module_bytes >> 10}k"))
    plain = binaries.tiny_module({"version": "550.54.15", "license": "NVIDIA",
                                  "vermagic": RELEASE + " SMP preempt mod_unload modversions "})
    plain_path = os.path.join(work, name + ".ko")
    with open(plain_path, "wb") as handle:
        handle.write(plain + padding(module_bytes - len(plain)))
    packed = {suffix: subprocess.run(COMPRESSORS[suffix] + [plain_path], capture_output=True, check=True).stdout
              for suffix in suffixes}
    for sub in directories:
        directory = os.path.join(root, "lib/modules", RELEASE, sub)
        os.makedirs(directory, exist_ok=True)
        for suffix, data in packed.items():
            with open(os.path.join(directory, "nvidia.ko." + suffix), "wb") as handle:
                handle.write(data)
    return root


def compressed_modules(work, module_bytes):
    """96 installed nvidia.ko of module_bytes each: .xz, .zst and .gz in 32
    module directories, as in the issue (a real nvidia.ko is 60 MB)."""
    return installed_modules(work, "modules", module_bytes, MODULE_DIRS, ["xz", "zst", "gz"], bytes)


def big_modules(work, module_bytes):
    """8 installed nvidia.ko.zst of module_bytes each, as a snapshot meets
    them: random padding, so the file is as large as what it unpacks to."""
    return installed_modules(work, "big-modules", module_bytes, MODULE_DIRS[:8], ["zst"], os.urandom)


def cupy_modules(work, scenarios, count):
    """The host-cupy13-with-toolkit scenario with count extension modules
    added, each with an 8,000-directory RUNPATH and 21 NEEDED."""
    snapshot = os.path.join(work, f"cupy-{count}")
    shutil.rmtree(snapshot, ignore_errors=True)
    shutil.copytree(os.path.join(scenarios, "host-cupy13-with-toolkit"), snapshot, symlinks=True)
    site = os.path.join(snapshot, "root/opt/venv/lib/python3.11/site-packages")
    runpath = ":".join(f"/r/d{i:04}" for i in range(8000))
    needed = ["libcublas.so.12", "libcufft.so.11", "libcurand.so.10", "libcusparse.so.12", "libcusolver.so.11",
              "libnvrtc.so.12", "libcudart.so.12"] + [f"libcuX{j}.so.1" for j in range(14)]
    dirs = ["cupy/_core", "cupy/cuda", "cupy/random", "cupy_backends/cuda/api", "cupy_backends/cuda/libs"]
    for i in range(count):
        directory = os.path.join(site, dirs[i % len(dirs)])
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, f"m{i:03}.cpython-311-x86_64-linux-gnu.so"), "wb") as handle:
            handle.write(binaries.tiny_elf(f"m{i}.so", needed=needed, runpath=runpath))
    return snapshot


def reports_to_diff(work, gpudoctor, scenarios, target_bytes):
    """Two reports of about target_bytes: one scenario's report, its
    findings repeated, the second with every message changed."""
    base = subprocess.run([gpudoctor, "check", "--replay", os.path.join(scenarios, "host-cupy13-with-toolkit"),
                           "--format", "json"], capture_output=True, text=True).stdout
    report = json.loads(base)
    layer = next(layer for layer in report["layers"] if layer.get("findings"))
    findings = layer["findings"]
    copies = max(1, target_bytes // len(json.dumps(findings[0])))
    layer["findings"] = [dict(findings[i % len(findings)], rule=f"r{i}") for i in range(copies)]
    paths = []
    for side in ("a", "b"):
        if side == "b":
            for finding in layer["findings"]:
                finding["message"] = finding.get("message", "") + " (changed)"
        path = os.path.join(work, f"report-{target_bytes >> 10}k-{side}.json")
        with open(path, "w") as handle:
            json.dump(report, handle)
        paths.append(path)
    return paths


def inputs(work, first, scenarios):
    """(name, size at 1x, size at 10x, build(scale) -> (argv_suffix, env)) for each input."""
    def cdi(kind):
        def build(scale):
            return ["check", "--root", hostile_inputs.cdi_roots(os.path.join(work, f"cdi-{scale}"), scale)[kind]], None
        return build

    def conda(scale):
        root, env = hostile_inputs.conda_meta_root(os.path.join(work, f"conda-{scale}"), records=int(80 * scale))
        return ["check", "--root", root], env

    def diff(scale):
        return ["diff"] + reports_to_diff(work, first, scenarios, int((15 << 20) * scale)), None

    return [
        ("`--root`, 96 compressed nvidia.ko (.xz, .zst, .gz)", "1.6 MiB each", "16 MiB each",
         lambda scale: (["check", "--root", compressed_modules(work, int((16 << 20) * scale))], None)),
        ("`--root`, a CDI spec of short scalars", "0.4 MiB", "4 MiB", cdi("scalars")),
        ("`--root`, 256 CDI devices aliasing one mount list", "9,000 entries", "90,000 entries", cdi("aliases")),
        ("`--root`, CDI specs of another vendor", "300 specs", "3,000 specs", cdi("vendors")),
        ("`--root`, 3 conda prefixes of 8 MiB CUDA records", "8 records each", "80 records each", conda),
        ("`--replay`, CuPy modules with an 8,000-directory RUNPATH and 21 NEEDED", "26 modules", "257 modules",
         lambda scale: (["check", "--replay", cupy_modules(work, scenarios, int(round(257 * scale)))], None)),
        ("`snapshot --root` of 8 nvidia.ko.zst that do not compress", "4 MB each", "40 MB each",
         lambda scale: (["snapshot", "--root", big_modules(work, int(40_000_000 * scale)), "--output", "{out}"], None)),
        ("`diff` of two reports", "1.5 MB", "15 MB", diff),
        ("`--replay`, top directories linked into a deep tree", "150 deep", "1,500 deep",
         lambda scale: (["check", "--replay", hostile_inputs.deep_link_archive(os.path.join(work, f"deep-{scale}.tar.gz"),
                                                                               int(1500 * scale))], None)),
    ]


def main():
    work = os.path.abspath(sys.argv[1])
    # LABEL=PATH, or a path that is its own label.
    labels = [arg.split("=", 1)[0] if "=" in arg else arg for arg in sys.argv[2:]]
    programs = [os.path.abspath(arg.split("=", 1)[-1]) for arg in sys.argv[2:]]
    # The build directory that has the helpers (an older checkout built for comparison may not).
    build_dir = next((os.path.dirname(p) for p in programs if os.path.exists(os.path.join(os.path.dirname(p), "write_binary"))),
                     os.path.dirname(programs[-1]))
    binaries.use_writer(os.path.join(build_dir, "write_binary"))
    scenarios = os.path.join(build_dir, "testdata/snapshots")
    fresh(os.path.join(work, "snapshots"))
    outputs = 0
    header = "| input | 1x | 10x | " + " | ".join(f"{label} 1x | {label} 10x | growth" for label in labels) + " |"
    print(header)
    print("|" + "---|" * (3 + 3 * len(programs)))
    only = os.environ.get("HOSTILE_ONLY", "")  # a part of an input's name: run that one alone
    for name, small, large, build in inputs(work, os.path.join(build_dir, "gpudoctor"), scenarios):
        if only not in name:
            continue
        cells = [name, small, large]
        built = {scale: build(scale) for scale in (0.1, 1.0)}
        for program in programs:
            results = {}
            for scale, (argv, env) in built.items():
                outputs += 1  # a snapshot writes a new archive each time
                argv = [word.replace("{out}", os.path.join(work, "snapshots", f"{outputs}.tar.gz")) for word in argv]
                results[scale] = measure([program] + argv, env)

            def cell(result):
                code, seconds, megabytes = result
                return f">{LIMIT_S} s (stopped)" if code is None else f"{seconds:.3f} s, {megabytes:.0f} MB, exit {code}"
            small_run, large_run = results[0.1], results[1.0]
            # Below a millisecond or two the ratio is the clock's, not the work's.
            growth = f"{large_run[1] / small_run[1]:.1f}x" if small_run[1] >= 0.002 else "-"
            cells += [cell(small_run), cell(large_run), growth]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
