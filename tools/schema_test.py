#!/usr/bin/env python3
"""Every machine-readable output validates against its JSON Schema in
docs/schemas/ (draft 2020-12): the report, the GPU table and the snapshot of
every scenario, lint's answer on every Dockerfile and compose file in
testdata/ (and on files it cannot lint), the rule set, and diffs.

usage: schema_test.py GPUDOCTOR REPO_ROOT SCENARIOS_DIR"""

import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    if os.environ.get("CI"):
        sys.exit("FAIL: python3-jsonschema is not installed (tools/quickstart.sh test installs it)")
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

gpudoctor, root, scenarios = sys.argv[1:4]
schemas = os.path.join(root, "docs/schemas")
tally = Checks("schemas")


def validator(name):
    schema = json.load(open(os.path.join(schemas, name + ".schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


VALIDATORS = {name: validator(name) for name in ("report", "gpus", "lint", "diff", "rules", "snapshot")}


def check(schema, what, document):
    errors = sorted(VALIDATORS[schema].iter_errors(document), key=lambda e: list(e.absolute_path))
    where = f": {'/'.join(map(str, errors[0].absolute_path))}: {errors[0].message[:300]}" if errors else ""
    tally(f"{what} against {schema}.schema.json{where}", not errors)


def output(*args):
    result = subprocess.run([gpudoctor, *args], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"FAIL: gpudoctor {' '.join(args)} exited {result.returncode}: {result.stderr[:300]}")
    return json.loads(result.stdout)


names = sorted(os.listdir(scenarios))
names = [n for n in names if os.path.isfile(os.path.join(scenarios, n, "snapshot.json"))]
for name in names:
    where = os.path.join(scenarios, name)
    options = json.load(open(os.path.join(where, "expected.json"))).get("options", {}) if os.path.exists(
        os.path.join(where, "expected.json")) else {}
    extra = (["--image"] if options.get("image") else []) + (["--gpu", options["gpu"]] if options.get("gpu") else []) + \
            (["--host-driver", options["host_driver"]] if options.get("host_driver") else [])
    check("report", name, output("check", "--replay", where, "--format", "json", *extra))
    check("gpus", name, output("gpus", "--replay", where, "--format", "json"))
    check("snapshot", name + "/snapshot.json", json.load(open(os.path.join(where, "snapshot.json"))))

for folder in ("dockerfiles", "compose"):
    for name in sorted(os.listdir(os.path.join(root, "testdata", folder))):
        path = os.path.join(root, "testdata", folder, name)
        result = subprocess.run([gpudoctor, "lint", path, "--format", "json"], capture_output=True, text=True)
        check("lint", name, json.loads(result.stdout))
result = subprocess.run([gpudoctor, "lint", os.path.join(root, "LICENSE"), "--format", "json"], capture_output=True, text=True)
check("lint", "a file that is neither (exit 2 with its problem)", json.loads(result.stdout))

check("rules", "the built-in rules", output("rules", "--format", "json"))
pairs = [("host-healthy-h100", "host-nvidia-smi-crashes"), ("host-healthy-h100", "host-healthy-h100"), ("host-no-gpu", "host-gpu-operator-healthy")]
for a, b in pairs:
    if a in names and b in names:
        check("diff", f"{a} against {b}", output("diff", os.path.join(scenarios, a), os.path.join(scenarios, b), "--format", "json"))

tally(f"every scenario's report, GPU table and snapshot validated ({len(names)} scenarios)", tally.passed >= 3 * len(names))
tally.finish()
