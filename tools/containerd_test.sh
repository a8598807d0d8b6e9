#!/usr/bin/env bash
# containerd's imports judged against containerd itself: for each set of
# configuration files, `containerd config dump` (the program's own merge and
# validation) against what gpudoctor, given the same files and the same
# program under --root, says the CRI plugin reads: whether containerd starts,
# its default runtime, the runtimes defined, whether the default is one of
# them. The program is containerd on PATH, else Debian's package unpacked
# into a temporary directory (never installed: no service starts). Debian 12
# has containerd 1.6, which merges imports as 1.7 does; 2.x is not checked here.
# Exits 77 (skipped) where neither is at hand.
# usage: containerd_test.sh path/to/gpudoctor
set -u
gpudoctor=$(realpath "$1")
test_name=containerd
. "$(dirname "$0")/daemon_test_lib.sh"
work=$(mktemp -d /tmp/gpudoctor-containerd-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
containerd_program "$work"
echo "containerd: $("$program" --version 2>/dev/null || echo "$program")"

passed=0
failed=0
merge_case() {  # merge_case NAME FILE=CONTENT...: config.toml and its imports; @DIR@ stands for the case's directory
  local name=$1 dir="$work/cases/$1" root="$work/roots/$1"
  shift
  mkdir -p "$dir" "$root/usr/bin" "$root/etc/containerd"
  ln "$program" "$root/usr/bin/containerd" 2>/dev/null || cp "$program" "$root/usr/bin/containerd"
  local entry file
  for entry in "$@"; do
    file="$dir/${entry%%=*}"
    mkdir -p "$(dirname "$file")"
    printf '%s\n' "${entry#*=}" | sed "s|@DIR@|$dir|g" >"$file"
    if [ "${entry%%=*}" = config.toml ]; then
      cp "$file" "$root/etc/containerd/config.toml"
    else
      mkdir -p "$(dirname "$root$file")" && cp "$file" "$root$file"
    fi
  done
  timeout 60 "$program" -c "$dir/config.toml" config dump >"$work/$name.dump" 2>"$work/$name.err"
  echo "rc=$?" >"$work/$name.rc"
  "$gpudoctor" check --root "$root" --no-probe --format json >"$work/$name.json" 2>/dev/null
  if python3 - "$work/$name.dump" "$work/$name.err" "$work/$name.rc" "$work/$name.json" "$name" <<'PY'; then
import json, sys, tomllib
dump_path, error_path, rc_path, report_path, name = sys.argv[1:]
started = open(rc_path).read().strip() == "rc=0"
text = open(dump_path).read()
report = json.load(open(report_path))
container = next(layer for layer in report["layers"] if layer["id"] == "container")
engines = container["facts"]["engines"]["containerd"]
ours = engines[0]
problems = []
if ours.get("major") != 1:
    problems.append(f"gpudoctor read major {ours.get('major')} from the program, not 1")
if started == ("refused" in ours):
    said = open(error_path).read().strip().splitlines()
    problems.append(f"containerd {'started' if started else 'refused: ' + (said[-1] if said else '')}; gpudoctor's refused: {ours.get('refused')}")
if not started and "refused" in ours:
    said = open(error_path).read()
    if ours["refused"] not in said:  # the same words, the same last file
        problems.append(f"refused: containerd said {said.strip()!r}, gpudoctor {ours['refused']!r}")
if started and "refused" not in ours:
    dump = tomllib.loads(text)
    plugins = dump.get("plugins", {})  # the dump names each plugin by its URI, whatever the files' version
    cri = plugins.get("io.containerd.grpc.v1.cri", plugins.get("cri", {})).get("containerd", {})
    default = cri.get("default_runtime_name", "")
    runtimes = set(cri.get("runtimes", {}))
    ours_runtimes = {runtime["name"] for runtime in ours["runtimes"]}
    if default != ours["default_runtime"]:
        problems.append(f"default runtime: containerd {default!r}, gpudoctor {ours['default_runtime']!r}")
    if runtimes - {"runc"} != ours_runtimes - {"runc"}:
        problems.append(f"runtimes: containerd {sorted(runtimes)}, gpudoctor {sorted(ours_runtimes)}")
    if (default in runtimes) != ours["default_runtime_defined"]:
        problems.append(f"default defined: containerd {default in runtimes}, gpudoctor {ours['default_runtime_defined']}")
for problem in problems:
    print(f"  {name}: {problem}")
sys.exit(1 if problems else 0)
PY
    echo "PASS: $name"
    passed=$((passed + 1))
  else
    echo "FAIL: $name"
    failed=$((failed + 1))
  fi
}

cri='plugins."io.containerd.grpc.v1.cri"'
nvidia_runtime="[$cri.containerd.runtimes.nvidia]
  runtime_type = \"io.containerd.runc.v2\"
  [$cri.containerd.runtimes.nvidia.options]
    BinaryName = \"/usr/bin/nvidia-container-runtime\""
runc_runtime="[$cri.containerd.runtimes.runc]
  runtime_type = \"io.containerd.runc.v2\""
main_with_nvidia="version = 2
imports = [\"@DIR@/conf.d/*.toml\"]
[$cri.containerd]
  default_runtime_name = \"nvidia\"
$runc_runtime
$nvidia_runtime"

# A registry drop-in replaces the whole CRI section: nvidia and the default are gone.
merge_case registry-drop-in-drops-nvidia "config.toml=$main_with_nvidia" \
  "conf.d/10-registry.toml=version = 2
[$cri.registry]
  config_path = \"/etc/containerd/certs.d\""
# nvidia-ctk's drop-in copies the whole section: nothing is lost.
merge_case nvidia-ctk-copies-the-section "config.toml=version = 2
imports = [\"@DIR@/conf.d/*.toml\"]
[$cri]
  sandbox_image = \"registry.k8s.io/pause:3.9\"
$runc_runtime" \
  "conf.d/99-nvidia.toml=version = 2
[$cri]
  sandbox_image = \"registry.k8s.io/pause:3.9\"
[$cri.containerd]
  default_runtime_name = \"nvidia\"
$runc_runtime
$nvidia_runtime"
# Two drop-ins of one runtime each: the second replaces the first, and runc with it; the default stays runc, undefined.
merge_case two-runtime-drop-ins "config.toml=version = 2
imports = [\"@DIR@/conf.d/*.toml\"]" \
  "conf.d/a.toml=[$cri.containerd.runtimes.foo]
  runtime_type = \"io.containerd.runc.v2\"" \
  "conf.d/b.toml=$nvidia_runtime"
# A drop-in that sets the default again keeps it.
merge_case drop-in-sets-the-default-again "config.toml=$main_with_nvidia" \
  "conf.d/10-nvidia.toml=version = 2
[$cri.containerd]
  default_runtime_name = \"nvidia\"
$runc_runtime
$nvidia_runtime"
# Docker's containerd.io file (version 1, cri disabled) with a version 2 drop-in: containerd does not start.
merge_case docker-file-with-version-2-drop-in "config.toml=disabled_plugins = [\"cri\"]
imports = [\"@DIR@/conf.d/*.toml\"]" \
  "conf.d/10-nvidia.toml=version = 2
[$cri.containerd]
  default_runtime_name = \"nvidia\"
$runc_runtime
$nvidia_runtime"
# A version 1 file's [plugins.cri] once a drop-in says version 2: refused.
merge_case version-1-tables-under-version-2 "config.toml=imports = [\"@DIR@/conf.d/*.toml\"]
[plugins.cri.containerd]
  default_runtime_name = \"nvidia\"" \
  "conf.d/10.toml=version = 2
[$cri.registry]
  config_path = \"/x\""
# Version 1 throughout: the CRI plugin reads \"cri\".
merge_case version-1-throughout "config.toml=imports = [\"@DIR@/conf.d/*.toml\"]
[plugins.cri.containerd]
  default_runtime_name = \"nvidia\"
  [plugins.cri.containerd.runtimes.nvidia]
    runtime_type = \"io.containerd.runc.v2\"" \
  "conf.d/10.toml=[plugins.cri.registry]
  config_path = \"/x\""
# No import touches the CRI section: the main file's runtimes stay.
merge_case other-plugin-drop-in "config.toml=$main_with_nvidia" \
  "conf.d/10-metrics.toml=version = 2
[plugins.\"io.containerd.monitor.v1.cgroups\"]
  no_prometheus = true"

# A runtimes table with no runtime in it: go-toml v1 gives the section an empty map.
merge_case empty-runtimes-table "config.toml=version = 2
[$cri.containerd]
  default_runtime_name = \"runc\"
[$cri.containerd.runtimes]"
# A version 1 file that names the CRI plugin by its URI, as version 2 does.
merge_case version-1-file-with-uri-table "config.toml=[$cri.containerd]
  default_runtime_name = \"nvidia\"
$nvidia_runtime"

echo "containerd: $passed passed, $failed failed"
[ "$failed" = 0 ]
