#!/usr/bin/env python3
"""The fleet integrations hold to the formats their projects define:

- containers/gpud/gpud.plugins.yaml against leptonai/gpud's custom-plugin spec
  (pkg/custom-plugins: the fields of types.go, the checks of spec.go) and run the
  way gpud runs it: the script's output with stderr, the first JSON object,
  each json_path's value as a string (objects as Go's json.Marshal writes them:
  sorted keys, no spaces, <, > and & escaped), its expect and suggested_actions
  regexes, and the health that follows (any exit but 0 is Unhealthy);
- containers/kubernetes/nvsentinel-kom-policies.yaml against NVSentinel's
  Kubernetes Object Monitor policies (their fields, RecommendedAction's values)
  and the condition the Node Problem Detector plugin sets.

gpud itself cannot run here (it is Go, and needs NVML): gpud_run is gpud's
check path as its sources define it (pkg/custom-plugins component.go and
plugin_output.go, at 4a8de33), so this holds the spec to those rules, not
to a gpud binary. On a GPU host, `gpud custom-plugins FILE -r` is the real test.

usage: fleet_integrations_test.py GPUDOCTOR REPO_ROOT SCENARIOS"""

import json
import os
import re
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

gpudoctor, root, scenarios = sys.argv[1:4]
check = Checks("fleet integrations")

# leptonai/gpud pkg/custom-plugins/types.go (json tags) and api/v1 RepairActionType.
GPUD_SPEC_KEYS = {"plugin_name", "plugin_type", "run_mode", "tags", "component_list", "component_list_file",
                  "health_state_plugin", "timeout", "interval"}
GPUD_REPAIR_ACTIONS = {"IGNORE_NO_ACTION_REQUIRED", "REBOOT_SYSTEM", "HARDWARE_INSPECTION", "CHECK_USER_APP_AND_GPU"}


def go_duration_seconds(text):
    units = {"s": 1, "m": 60, "h": 3600}
    match = re.fullmatch(r"(\d+)([smh])", str(text))
    return int(match.group(1)) * units[match.group(2)] if match else None


def go_marshal(value):
    """A JSON value as Go's encoding/json writes it (gpud's anyToString of an object)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def gpud_run(spec, replay):
    """What gpud makes of one run: (health, extra_info, repair actions)."""
    script = spec["health_state_plugin"]["steps"][0]["run_bash_script"]["script"]
    script = script.replace("/usr/local/bin/gpudoctor", gpudoctor + " --replay " + replay)
    run = subprocess.run(["bash", "-c", script + " 2>&1"], capture_output=True, text=True)
    output = run.stdout
    start = output.find("{")
    document = json.JSONDecoder().raw_decode(output[start:])[0] if start >= 0 else None
    extra, actions, health = {}, set(), "Healthy"
    for path in spec["health_state_plugin"]["parser"]["json_paths"] if document is not None else []:
        key = path["query"][2:]
        if key not in document:
            if "expect" in path:
                health = "Unhealthy"
            continue
        value = document[key]
        text = value if isinstance(value, str) else "null" if value is None else go_marshal(value)
        extra[path["field"]] = text
        if "expect" in path and not re.search(path["expect"]["regex"], text):
            health = "Unhealthy"
        for action, rule in path.get("suggested_actions", {}).items():
            if re.search(rule["regex"], text):
                actions.add(action)
    if run.returncode != 0:
        health = "Unhealthy"
    return health, extra, actions


specs = yaml.safe_load(open(os.path.join(root, "containers/gpud/gpud.plugins.yaml")))
check("gpud: the file is a list of specs", isinstance(specs, list) and len(specs) == 1)
spec = specs[0]
check("gpud: only fields gpud's spec has", set(spec) <= GPUD_SPEC_KEYS)
check("gpud: a component plugin with a name", spec.get("plugin_type") == "component" and 0 < len(spec.get("plugin_name", "")) <= 128)
check("gpud: the interval is at least a minute (spec.go)", go_duration_seconds(spec.get("interval")) >= 60)
check("gpud: the timeout outlasts the probes' deadlines (35 s)", go_duration_seconds(spec.get("timeout")) >= 60)
steps = spec["health_state_plugin"]["steps"]
check("gpud: each step has a name and a script gpud can run",
      all(step.get("name") and step["run_bash_script"].get("content_type") in ("plaintext", "text/plain", "base64")
          and step["run_bash_script"].get("script") for step in steps))
paths = spec["health_state_plugin"]["parser"]["json_paths"]
check("gpud: queries read top-level keys only (one below a null fails gpud's parser)",
      all(re.fullmatch(r"\$\.[a-z_]+", path["query"]) for path in paths))
check("gpud: suggested actions are gpud's RepairActionType values",
      all(set(path.get("suggested_actions", {})) <= GPUD_REPAIR_ACTIONS for path in paths))

health, extra, actions = gpud_run(spec, os.path.join(scenarios, "host-healthy-h100"))
check("gpud: a healthy machine is Healthy, with nothing to do", health == "Healthy" and not actions and extra.get("action") == "none")
health, extra, actions = gpud_run(spec, os.path.join(scenarios, "host-xid-not-in-catalog"))
check("gpud: a warning stays Healthy and asks for no repair", health == "Healthy" and not actions and extra.get("verdict") == "warn")
health, extra, actions = gpud_run(spec, os.path.join(scenarios, "host-xid-48-in-log"))
check("gpud: Xid 48 is Unhealthy with REBOOT_SYSTEM (gpud's GPU reset)", health == "Unhealthy" and actions == {"REBOOT_SYSTEM"})
health, extra, actions = gpud_run(spec, os.path.join(scenarios, "host-gpu-rows-exhausted"))
check("gpud: spare rows exhausted is Unhealthy with HARDWARE_INSPECTION", health == "Unhealthy" and actions == {"HARDWARE_INSPECTION"})
health, extra, actions = gpud_run(spec, os.path.join(scenarios, "no-such-snapshot"))
check("gpud: gpudoctor unable to run (exit 2) is Unhealthy", health == "Unhealthy")

# NVSentinel: the Kubernetes Object Monitor's policy fields (health-monitors/
# kubernetes-object-monitor/pkg/config/types.go) and HealthEvent's RecommendedAction
# values common to its published protos (data-models/protobufs/health_event.proto).
KOM_POLICY_KEYS = {"name", "enabled", "resource", "predicate", "nodeAssociation", "healthEvent"}
KOM_EVENT_KEYS = {"componentClass", "isFatal", "message", "recommendedAction", "errorCode", "processingStrategy",
                  "quarantineOverrides", "drainOverrides"}
RECOMMENDED_ACTIONS = {"NONE", "COMPONENT_RESET", "CONTACT_SUPPORT", "RUN_FIELDDIAG", "RESTART_VM", "RESTART_BM",
                       "REPLACE_VM", "RUN_DCGMEUD", "UNKNOWN"}
npd = json.load(open(os.path.join(root, "containers/kubernetes/npd-gpudoctor-monitor.json")))
condition = npd["conditions"][0]["type"]
policies = yaml.safe_load(open(os.path.join(root, "containers/kubernetes/nvsentinel-kom-policies.yaml")))
policies = policies["kubernetes-object-monitor"]["policies"]
prometheus = subprocess.run([gpudoctor, "check", "--replay", os.path.join(scenarios, "host-healthy-h100"), "--format", "prometheus"],
                            capture_output=True, text=True).stdout
known_actions = set(re.findall(r'^gpudoctor_action\{action="([a-z-]+)"\}', prometheus, re.M))
check("nvsentinel: gpudoctor lists its actions", len(known_actions) == 8)
covered = set()
for policy in policies:
    name = policy.get("name", "?")
    check(f"nvsentinel: {name} has only the policy's fields", set(policy) <= KOM_POLICY_KEYS and set(policy["healthEvent"]) <= KOM_EVENT_KEYS)
    expression = policy["predicate"]["expression"]
    check(f"nvsentinel: {name} reads NPD's condition {condition}", f'c.type == "{condition}"' in expression)
    tags = set(re.findall(r'contains\("\[([a-z-]+)\]"\)', expression))
    check(f"nvsentinel: {name} routes on actions gpudoctor has", tags and tags <= known_actions)
    covered |= tags
    check(f"nvsentinel: {name} recommends one of HealthEvent's actions", policy["healthEvent"]["recommendedAction"] in RECOMMENDED_ACTIONS)
check("nvsentinel: every action a node needs is routed",
      covered >= {"reset-gpu", "drain-and-reset", "reboot-node", "inspect-hardware", "fix-configuration"})
# The tag the policies read survives NPD's cut of the message (max_output_length bytes).
line = subprocess.run([gpudoctor, "check", "--replay", os.path.join(scenarios, "host-xid-154-drain-and-reset"), "--format", "line"],
                      capture_output=True, text=True).stdout.strip()
cut = line.encode()[:npd["pluginConfig"]["max_output_length"]].decode(errors="ignore")
check("npd: the action is in the message NPD keeps", "[drain-and-reset]" in cut)

check.finish()
