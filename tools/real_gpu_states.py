#!/usr/bin/env python3
"""gpudoctor against what a CUDA program really did, on a machine with a GPU.

Run as root on a machine with a real NVIDIA GPU (the states change compute
mode and MIG for a moment and set them back; /dev is changed only inside
private mount namespaces). It puts the GPU in the states of
testdata/captures/h200-580.159.04/README.md and a few more, each with its
healthy twin, and in each runs, every one in a fresh namespace:

- tools/cuda_truth.c (cuInit, a device, its primary context, 1 MiB): what a
  CUDA program experienced, the ground truth;
- `python3 -c 'torch.ones(1, device="cuda")'` where --torch names an
  interpreter that has torch (slow: seconds a state);
- `gpudoctor check --format json` of each binary given (verdict, headline,
  findings, the outcomes it observed).

A state where the truth works must not be a FAIL; one where it fails must
be. It then times, in turn over --rounds rounds (medians), cuInit alone,
gpudoctor's slowest child alone, `nvidia-smi --query-gpu` with gpudoctor's
fields, `nvidia-smi --version` and the banner, and `check`, `check
--no-probe` and `gpus` of each binary: docs/benchmarks.md's ratios on the
real driver. Everything goes to --out (results.json, a log), and --snapshot
STATE keeps `gpudoctor snapshot` of that state, redacted.

usage: sudo tools/real_gpu_states.py --out DIR --truth CUDA_TRUTH [--torch PYTHON [--torch-state STATE ...]]
           [--before GPUDOCTOR] [--rounds N] [--snapshot STATE ...] [--only STATE ...] GPUDOCTOR [GPUDOCTOR ...]
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

NVIDIA_NODES = ["nvidiactl", "nvidia0", "nvidia-uvm", "nvidia-uvm-tools"]
BASIC_NODES = ["null", "zero", "urandom", "random", "full", "tty"]
SMI_FIELDS = ("index,driver_version,name,uuid,pci.bus_id,compute_cap,memory.total,memory.used,"
              "mig.mode.current,persistence_mode,compute_mode")
NOBODY = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "--"]
NO_MKNOD = ["setpriv", "--bounding-set", "-mknod", "--"]
TORCH = ("import torch\n"
         "try:\n"
         "    torch.ones(1, device='cuda'); print('works:', torch.cuda.get_device_name(0))\n"
         "except Exception as error:\n"
         "    print('fails:', (str(error).strip().splitlines() or [type(error).__name__])[0])\n")


def major_of(name):
    """A character device's major from /proc/devices."""
    with open("/proc/devices") as devices:
        for line in devices:
            parts = line.split()
            if len(parts) == 2 and parts[1] == name:
                return int(parts[0])
    return None


def private_dev(nodes, mode=None, uvm_major=None):
    """Shell that gives the namespace a tmpfs /dev with the basic nodes and the NVIDIA ones named."""
    lines = ["set -e", "mount --make-rprivate /", "mkdir -p /run/gd-realdev", "mount --rbind /dev /run/gd-realdev",
             "mount -t tmpfs -o mode=755 gd-dev /dev", "mkdir /dev/shm /dev/pts", "mount -t tmpfs -o mode=1777 shm /dev/shm",
             "ln -s /proc/self/fd /dev/fd"]
    lines += [f"cp -a /run/gd-realdev/{node} /dev/{node}" for node in BASIC_NODES]
    for node in nodes:
        if node == "nvidia-uvm" and uvm_major is not None:
            lines.append(f"mknod -m 666 /dev/nvidia-uvm c {uvm_major} 0")
        else:
            lines.append(f"if [ -e /run/gd-realdev/{node} ]; then cp -a /run/gd-realdev/{node} /dev/{node}; fi")
        if mode:
            lines.append(f"if [ -e /dev/{node} ]; then chmod {mode} /dev/{node}; chown 0:0 /dev/{node}; fi")
    lines.append("umount -l /run/gd-realdev")
    return "; ".join(lines)


class State:
    def __init__(self, name, truth, env=None, nodes=None, mode=None, uvm_major=None, user=None, setup=None, teardown=None,
                 holder=False, expect=None):
        self.name, self.truth, self.env, self.nodes = name, truth, env or {}, nodes
        self.mode, self.uvm_major, self.user = mode, uvm_major, user or []
        self.setup, self.teardown, self.holder = setup or [], teardown or [], holder
        self.expect = expect  # what the README measured, for the log

    def wrap(self, argv):
        """argv as run in this state: a private /dev, another user, fewer capabilities."""
        inner = self.user + argv
        if self.nodes is None:
            return inner
        script = private_dev(self.nodes, self.mode, self.uvm_major) + "; exec " + shlex.join(inner)
        return ["unshare", "--mount", "sh", "-c", script]


def states(wrong_major):
    smi = "nvidia-smi"
    return [
        State("healthy", "works"),
        State("cvd-empty", "fails", env={"CUDA_VISIBLE_DEVICES": ""}),
        State("cvd-zero", "works", env={"CUDA_VISIBLE_DEVICES": "0"}),
        State("cvd-one", "fails", env={"CUDA_VISIBLE_DEVICES": "1"}),
        State("dev-all-root", "works", nodes=NVIDIA_NODES),
        State("dev-none-root", "works", nodes=[]),
        State("dev-no-uvm-root", "works", nodes=["nvidiactl", "nvidia0"]),
        State("dev-none-root-nomknod", "fails", nodes=[], user=NO_MKNOD),
        State("dev-uvm-wrong-major-root", "works", nodes=NVIDIA_NODES, uvm_major=wrong_major),
        State("dev-all-nobody", "works", nodes=NVIDIA_NODES, user=NOBODY),
        State("dev-none-nobody", "fails", nodes=[], user=NOBODY),
        State("dev-no-uvm-nobody", "fails", nodes=["nvidiactl", "nvidia0"], user=NOBODY),
        State("dev-uvm-wrong-major-nobody", "fails", nodes=NVIDIA_NODES, uvm_major=wrong_major, user=NOBODY),
        State("dev-mode600-nobody", "fails", nodes=NVIDIA_NODES, mode="600", user=NOBODY),
        State("cm-exclusive-idle", "works", setup=[[smi, "-i", "0", "-c", "EXCLUSIVE_PROCESS"]],
              teardown=[[smi, "-i", "0", "-c", "DEFAULT"]]),
        State("cm-exclusive-busy", "fails", setup=[[smi, "-i", "0", "-c", "EXCLUSIVE_PROCESS"]],
              teardown=[[smi, "-i", "0", "-c", "DEFAULT"]], holder=True),
        State("cm-default-busy", "works", holder=True),
        State("cm-prohibited", "fails", setup=[[smi, "-i", "0", "-c", "PROHIBITED"]],
              teardown=[[smi, "-i", "0", "-c", "DEFAULT"]]),
        State("mig-no-instances", "fails", setup=[[smi, "-i", "0", "-mig", "1"]]),
        # The healthy twin: one GPU instance with its compute instance (the
        # smallest profile, 19 on the A100, H100 and H200), then MIG off again.
        State("mig-one-instance", "works", setup=[[smi, "mig", "-i", "0", "-cgi", "19", "-C"]],
              teardown=[[smi, "mig", "-i", "0", "-dci"], [smi, "mig", "-i", "0", "-dgi"], [smi, "-i", "0", "-mig", "0"]]),
    ]


def run(argv, env=None, timeout=120):
    started = time.monotonic()
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, errors="replace", timeout=timeout)
        return done.returncode, done.stdout, done.stderr, time.monotonic() - started
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s", time.monotonic() - started
    except OSError as error:
        return 127, "", str(error), time.monotonic() - started


def summary(report_text):
    try:
        report = json.loads(report_text)
    except ValueError:
        return {"unreadable": report_text[:400]}
    findings = []
    for layer in report.get("layers", []):
        for finding in layer.get("findings", []):
            findings.append(f"{finding.get('severity')}:{finding.get('rule')}")
    headline = report.get("headline") or {}
    return {"verdict": report.get("verdict"), "failing_layer": report.get("failing_layer"),
            "headline": headline.get("rule"), "message": headline.get("message"), "findings": findings,
            "outcomes": {name: outcome.get("observed") for name, outcome in (report.get("outcomes") or {}).items()}}


def judge(truth_said, gpudoctor):
    """Right when a working truth is not a FAIL and a failing one is."""
    verdict = gpudoctor.get("verdict")
    if truth_said.startswith("works"):
        return verdict != "fail"
    return verdict == "fail"


def in_state(state, args, log):
    env = dict(os.environ, **state.env)
    result = {"state": state.name, "expected_truth": state.truth}
    holder = None
    for command in state.setup:
        code, out, err, _ = run(command)
        result.setdefault("setup", []).append(f"{shlex.join(command)} -> {code}: {(out + err).strip()[:300]}")
    if state.holder:
        holder = subprocess.Popen([args.truth, "600"], stdout=subprocess.PIPE, text=True)
        result["holder"] = holder.stdout.readline().strip()
        holder.stdout.readline()  # "holding"
    try:
        code, out, err, seconds = run(state.wrap([args.truth]), env=env)
        result["truth"] = (out.strip() or err.strip())[:300]
        if args.torch and (not args.torch_state or state.name in args.torch_state):
            code, out, err, seconds = run(state.wrap([args.torch, "-c", TORCH]), env=env, timeout=180)
            result["torch"] = (out.strip() or err.strip()[-300:])[:300]
        result["gpudoctor"] = {}
        for binary in args.gpudoctor:
            code, out, err, seconds = run(state.wrap([binary, "check", "--format", "json"]), env=env)
            seen = summary(out)
            seen.update({"exit": code, "seconds": round(seconds, 3), "stderr": err.strip()[:300],
                         "right": judge(result["truth"], seen)})
            result["gpudoctor"][binary] = seen
        if state.name in args.smoke_state:
            code, out, err, seconds = run(state.wrap([args.gpudoctor[0], "check", "--smoke", "--format", "json"]), env=env)
            result["smoke"] = dict(summary(out), exit=code, seconds=round(seconds, 3), right=judge(result["truth"], summary(out)))
        if state.name in args.snapshot:
            path = os.path.join(args.out, f"snapshot-{state.name}.tar.gz")
            code, out, err, _ = run(state.wrap([args.gpudoctor[0], "snapshot", "--output", path]), env=env)
            result["snapshot"] = f"{path}: exit {code} {err.strip()[:200]}"
    finally:
        if holder:
            holder.kill()
            holder.wait()
        for command in state.teardown:
            code, out, err, _ = run(command)
            result.setdefault("teardown", []).append(f"{shlex.join(command)} -> {code}: {(out + err).strip()[:300]}")
    log.write(json.dumps(result, indent=1) + "\n")
    log.flush()
    return result


def timings(args, log):
    smi = "nvidia-smi"
    yardsticks = {
        "cuInit alone (cuda_truth init)": [args.truth, "init"],
        "nvidia-smi --query-gpu": [smi, "--query-gpu=" + SMI_FIELDS, "--format=csv,noheader,nounits"],
        "nvidia-smi --version": [smi, "--version"],
        "nvidia-smi (banner)": [smi],
    }
    commands = dict(yardsticks)
    for binary in ([args.before] if args.before else []) + args.gpudoctor:
        commands[f"{binary}: slowest child (__child driver-probe cuda)"] = [binary, "__child", "driver-probe", "cuda"]
        commands[f"{binary}: check"] = [binary, "check"]
        commands[f"{binary}: check --no-probe"] = [binary, "check", "--no-probe"]
        commands[f"{binary}: gpus"] = [binary, "gpus"]
    measured = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, argv in commands.items():
            started = time.monotonic()
            run(argv)
            measured[name].append((time.monotonic() - started) * 1000)
    ms = {name: round(statistics.median(values), 1) for name, values in measured.items()}
    ratios = {}
    query = ms["nvidia-smi --query-gpu"]
    for binary in ([args.before] if args.before else []) + args.gpudoctor:
        child = ms[f"{binary}: slowest child (__child driver-probe cuda)"]
        ratios[binary] = {"check / slowest child": round(ms[f"{binary}: check"] / child, 2),
                          "check / cuInit alone": round(ms[f"{binary}: check"] / ms["cuInit alone (cuda_truth init)"], 2),
                          "check --no-probe / query": round(ms[f"{binary}: check --no-probe"] / query, 2),
                          "gpus / query": round(ms[f"{binary}: gpus"] / query, 2)}
    result = {"rounds": args.rounds, "median_ms": ms, "ratios": ratios}
    log.write(json.dumps(result, indent=1) + "\n")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--truth", required=True, help="tools/cuda_truth.c, compiled")
    parser.add_argument("--torch", help="a python3 that has torch")
    parser.add_argument("--torch-state", action="append", default=[], help="run torch in this state only (repeatable)")
    parser.add_argument("--before", help="a gpudoctor to time beside the others (its verdicts are not taken)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--snapshot", action="append", default=[], help="keep `gpudoctor snapshot` of this state")
    parser.add_argument("--smoke-state", action="append", default=[], help="also `check --smoke` in this state")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--no-timings", action="store_true")
    parser.add_argument("gpudoctor", nargs="+")
    args = parser.parse_args()
    args.gpudoctor = [os.path.abspath(binary) for binary in args.gpudoctor]
    args.truth = os.path.abspath(args.truth)
    args.before = os.path.abspath(args.before) if args.before else None
    os.makedirs(args.out, exist_ok=True)
    wrong_major = major_of("nvidia-nvlink") or major_of("nvidia-caps") or 240
    results = {"driver": open("/proc/driver/nvidia/version").read().strip() if os.path.exists("/proc/driver/nvidia/version")
               else None, "states": []}
    with open(os.path.join(args.out, "log.txt"), "w") as log:
        if not args.no_timings:
            results["timings"] = timings(args, log)
        for state in states(wrong_major):
            if args.only and state.name not in args.only:
                continue
            results["states"].append(in_state(state, args, log))
    with open(os.path.join(args.out, "results.json"), "w") as out:
        json.dump(results, out, indent=1)
    for state in results["states"]:
        verdicts = " ".join(f"{os.path.basename(os.path.dirname(b))}={g.get('verdict')}/{g.get('headline')}"
                            f"{'' if g.get('right') else ' WRONG'}" for b, g in state.get("gpudoctor", {}).items())
        print(f"{state['state']:28} truth {state.get('truth', '')[:60]:60} torch {state.get('torch', '-')[:40]:40} {verdicts}")
    if "timings" in results:
        print(json.dumps(results["timings"]["ratios"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
