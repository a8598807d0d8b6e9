#!/usr/bin/env python3
"""The Kubernetes manifests, the image they name and the binary must agree:
the DaemonSet runs a command that exists in the image containers/Dockerfile.static
builds, with options the binary accepts, writes below the volume it mounts,
tolerates every taint, and runs unprivileged; NPD's plugin path is where the
image puts gpudoctor.

usage: manifest_test.py GPUDOCTOR REPO_ROOT"""

import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

gpudoctor, root = sys.argv[1:3]
check = Checks("manifests")


def image_files(dockerfile):
    """Absolute paths the final stage of the recipe puts in the image, and its ENTRYPOINT."""
    stages = open(dockerfile).read().split("\nFROM ")
    final = stages[-1]
    files = set(re.findall(r"^COPY (?:--from=\S+ )?\S+ (/\S+)$", final, re.M))
    entrypoint = re.search(r"^ENTRYPOINT (\[.*\])$", final, re.M)
    return final.split("\n", 1)[0].split()[0], files, json.loads(entrypoint.group(1)) if entrypoint else []


base, files, entrypoint = image_files(os.path.join(root, "containers/Dockerfile.static"))
check("the image is FROM scratch with /gpudoctor", base == "scratch" and "/gpudoctor" in files)

daemonset = yaml.safe_load(open(os.path.join(root, "containers/kubernetes/gpudoctor-textfile-daemonset.yaml")))
pod = daemonset["spec"]["template"]["spec"]
container = pod["containers"][0]
command = container.get("command") or entrypoint
check("the DaemonSet's command exists in that image (it has no shell)", command and command[0] in files)
args = container.get("args", [])
check("it runs check with the prometheus format", args[:3] == ["check", "--format", "prometheus"])
output = args[args.index("--output") + 1] if "--output" in args else ""
# The binary runs these very arguments: it keeps going (a usage error would be
# exit 2 at once) and writes the metrics (to a temporary file instead of /textfile).
with tempfile.TemporaryDirectory() as scratch:
    written = os.path.join(scratch, "gpudoctor.prom")
    local = [written if arg == output else arg for arg in args]
    try:
        subprocess.run([gpudoctor, *local, "--no-probe"], capture_output=True, timeout=3)
        still_running = False
    except subprocess.TimeoutExpired:
        still_running = True
    check("the binary runs its arguments and keeps running", still_running)
    check("and writes the metrics", os.path.exists(written) and "gpudoctor_verdict" in open(written).read())
mounts = [m["mountPath"] for m in container.get("volumeMounts", [])]
check("--output lies below a mounted volume", any(output.startswith(m.rstrip("/") + "/") for m in mounts))
check("it repeats by itself (--every), so the pod never exits", "--every" in args)
check("every taint is tolerated", {"operator": "Exists"} in pod.get("tolerations", []))
security = container.get("securityContext", {})
check("no privilege escalation", security.get("allowPrivilegeEscalation") is False)
check("every capability dropped", security.get("capabilities", {}).get("drop") == ["ALL"])
check("a seccomp profile", security.get("seccompProfile", {}).get("type") in ("RuntimeDefault", "Localhost"))

npd = json.load(open(os.path.join(root, "containers/kubernetes/npd-gpudoctor-monitor.json")))
rule = npd["rules"][0]
check("NPD calls check --format line", rule["args"] == ["check", "--format", "line"])
check("NPD's plugin path is where the NPD manifest mounts the image's /gpudoctor",
      rule["path"] == "/opt/gpudoctor/gpudoctor")
patch = yaml.safe_load(open(os.path.join(root, "containers/kubernetes/npd-gpudoctor-patch.yaml")))["spec"]["template"]["spec"]
volume = next(v for v in patch["volumes"] if v["name"] == "gpudoctor")
mount = next(m for c in patch["containers"] for m in c["volumeMounts"] if m["name"] == "gpudoctor")
check("the NPD patch mounts the same image the DaemonSet runs", volume["image"]["reference"] == container["image"])
check("at the directory NPD's rule calls into", os.path.join(mount["mountPath"], "gpudoctor") == rule["path"])
check.finish()
