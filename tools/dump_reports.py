#!/usr/bin/env python3
"""Writes every scenario's JSON, text, markdown and prometheus reports and
its `gpus` table (JSON and text), one file each, so that two builds or two
commits can be compared with `diff -r`: a structural change must leave every
report identical, byte for byte. The prometheus check's duration, the one
value that differs from run to run, is left out.

usage: dump_reports.py GPUDOCTOR OUT_DIR SCENARIOS...
SCENARIOS: directories of scenarios (build/testdata/snapshots) or snapshot
archives (testdata/captures/*/*.tar.gz). Each is checked the way the replay
suite checks it (expected.json's "options": --image, --gpu, --host-driver,
--smoke, --no-probe)."""

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
    if options.get("no_probe"):
        args += ["--no-probe"]
    return args


def scenarios_in(path):
    if os.path.isfile(path) or os.path.exists(os.path.join(path, "snapshot.json")):
        yield os.path.basename(path), path
        return
    for name in sorted(os.listdir(path)):
        scenario = os.path.join(path, name)
        if os.path.isdir(scenario) or name.endswith(".tar.gz"):
            yield name, scenario


def main():
    binary, out, *sources = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for source in sources:
        for name, scenario in scenarios_in(source):
            runs = {fmt: [binary, "check", "--replay", scenario, "--format", fmt, *options_of(scenario)]
                    for fmt in ("json", "text", "markdown", "prometheus")}
            runs.update({f"gpus.{fmt}": [binary, "gpus", "--replay", scenario, "--format", fmt] for fmt in ("json", "text")})
            for label, argv in runs.items():
                run = subprocess.run(argv, capture_output=True, text=True)
                stdout = run.stdout
                if label == "prometheus":
                    stdout = "".join(line for line in stdout.splitlines(keepends=True)
                                     if not line.startswith("gpudoctor_check_duration_seconds "))
                with open(os.path.join(out, f"{name}.{label}"), "w") as f:
                    f.write(f"exit {run.returncode}\n{stdout}{run.stderr}")


if __name__ == "__main__":
    main()
