#!/usr/bin/env python3
"""The fleet's alerting rules and dashboard (containers/kubernetes/) must name
only what gpudoctor writes: every gpudoctor_* metric they query is one the
binary's prometheus output declares, and every label they select or group a
gpudoctor metric by is one it carries. Then promtool checks the rule file and
runs its unit tests (gpudoctor-alerts.test.yaml) where promtool is installed;
under CI it must be.

usage: fleet_rules_test.py GPUDOCTOR REPO_ROOT SCENARIOS_DIR"""

import json
import os
import re
import shutil
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

gpudoctor, root, scenarios = sys.argv[1:4]
kubernetes = os.path.join(root, "containers/kubernetes")
check = Checks("fleet rules")


def written_series():
    """metric -> labels it carries, over a failing report with a GPU finding and a healthy one."""
    labels = {}
    for scenario in ("host-nvidia-smi-gpu-lost", "host-healthy-h100"):
        out = subprocess.run([gpudoctor, "check", "--format", "prometheus", "--replay", os.path.join(scenarios, scenario)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("# TYPE "):
                labels.setdefault(line.split()[2], set())
            elif line and not line.startswith("#"):
                name = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0)
                labels.setdefault(name, set()).update(re.findall(r'([a-z_]+)="', line))
    return labels


# Metrics of the exporters the dashboard joins with, by their documented names.
EXTERNAL = {"node_textfile_mtime_seconds",  # node_exporter's textfile collector
            "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_GPU_TEMP"}  # dcgm-exporter's default counters


def queries():
    rules = yaml.safe_load(open(os.path.join(kubernetes, "gpudoctor-alerts.rules.yaml")))
    for group in rules["groups"]:
        for rule in group["rules"]:
            yield "alert " + rule["alert"], rule["expr"]
    dashboard = json.load(open(os.path.join(kubernetes, "gpudoctor-dashboard.json")))
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            yield "panel " + panel["title"], target["expr"]


series = written_series()
check("gpudoctor writes its metrics", {"gpudoctor_root_cause", "gpudoctor_build_info", "gpudoctor_gpu_info"} <= set(series))
PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "offset", "unless", "and", "or",
                "max", "min", "sum", "count", "avg", "time", "max_over_time", "bool", "humanizeDuration"}
count = 0
for where, expr in queries():
    count += 1
    stripped = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # label values are not names
    names = {n for n in re.findall(r"\b[a-zA-Z_:][a-zA-Z0-9_:]*\b", stripped)
             if n not in PROMQL_WORDS and (n.startswith("gpudoctor_") or n in EXTERNAL or n.isupper() or n.startswith("node_"))}
    for name in names:
        check(f"{where}: {name} is a metric gpudoctor or a joined exporter writes", name in series or name in EXTERNAL)
    # Labels selected on a gpudoctor metric: metric{label=..., ...}
    for name, selector in re.findall(r"(gpudoctor_[a-z_]+)\{([^}]*)\}", expr):
        for label in re.findall(r"([a-z_]+)\s*[=!~]+", selector):
            check(f"{where}: {name} carries the label {label}", label in series.get(name, set()))
    # Labels grouped by, where the aggregation is over gpudoctor metrics alone
    # ("instance" and "node" are the scrape's own labels).
    for labels, inner in re.findall(r"by \(([^)]*)\) \((gpudoctor_[a-z_]+)", expr):
        for label in [l.strip() for l in labels.split(",") if l.strip()]:
            check(f"{where}: {inner} carries the label {label}",
                  label in ("instance", "node") or label in series.get(inner, set()))
check("the alerts and the dashboard hold queries", count >= 8)

promtool = shutil.which("promtool")
if promtool:
    for args in (["check", "rules", "gpudoctor-alerts.rules.yaml"], ["test", "rules", "gpudoctor-alerts.test.yaml"]):
        result = subprocess.run([promtool, *args], cwd=kubernetes, capture_output=True, text=True)
        check("promtool " + " ".join(args), result.returncode == 0)
        if result.returncode:
            print(result.stdout, result.stderr)
elif os.environ.get("CI"):
    check("promtool is installed in CI (tools/quickstart.sh test installs prometheus)", False)
else:
    print("SKIP: promtool not installed (Debian's prometheus package); the rules were not run")

check.finish()
