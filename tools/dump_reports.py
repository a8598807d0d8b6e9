#!/usr/bin/env python3
"""Writes every scenario's JSON report, keys sorted, one file a scenario, so
that two builds or two commits can be compared with `diff -r`: a structural
change must leave every report identical.

usage: dump_reports.py GPUDOCTOR SCENARIOS OUT_DIR   (SCENARIOS: build/testdata/snapshots)
Each scenario is checked the way the replay suite checks it (expected.json's
"options": --image, --gpu, --host-driver, --smoke)."""

import json
import os
import subprocess
import sys


def options_of(scenario):
    try:
        with open(os.path.join(scenario, "expected.json")) as f:
            options = json.load(f).get("options") or {}
    except (OSError, ValueError):
        return []
    args = ["--image"] if options.get("image") else []
    if "gpu" in options:
        args += ["--gpu", options["gpu"]]
    if "host_driver" in options:
        args += ["--host-driver", options["host_driver"]]
    if options.get("smoke"):
        args += ["--smoke"]
    return args


def main():
    binary, snapshots, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(snapshots)):
        scenario = os.path.join(snapshots, name)
        if not os.path.isdir(scenario):
            continue
        run = subprocess.run([binary, "check", "--replay", scenario, "--format", "json", *options_of(scenario)],
                             capture_output=True, text=True)
        try:
            text = json.dumps(json.loads(run.stdout), indent=1, sort_keys=True) + "\n"
        except ValueError:
            text = f"not JSON (exit {run.returncode}):\n{run.stdout}{run.stderr}"
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
