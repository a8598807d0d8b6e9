#!/usr/bin/env bash
# The running containerd judged against containerd itself: a real containerd
# is started, its files changed under it the way people change them (the
# nvidia runtime written without a restart, a default that is not defined, an
# import that is not there), and what gpudoctor's live check says each time is
# compared with what containerd says it loaded (its log's "Start cri plugin
# with config" line) and with what its next start does. The program is
# containerd on PATH, else Debian's package unpacked into a temporary
# directory (never installed). Everything the test writes lies in a private
# mount namespace: tmpfs over /run (the socket, containerd.service in
# /run/systemd/system, the files it names with --config), the daemon's data in
# a temporary directory. Exits 77 (skipped) without root, unshare or containerd.
# usage: containerd_live_test.sh path/to/gpudoctor
set -u
gpudoctor=$(realpath "$1")
test_name="containerd live"
. "$(dirname "$0")/daemon_test_lib.sh"
in_private_namespace "$@"

work=$(mktemp -d /tmp/gpudoctor-containerd-live.XXXXXX)
trap 'stop_daemon; rm -rf "$work"' EXIT
containerd_program "$work"
mount -t tmpfs tmpfs /run || skip "cannot mount a tmpfs over /run"
echo "containerd live: $("$program" --version)"

# containerd.service as a site would start it with a file of its own; the nvidia runtime's program is there.
files=/run/gd-containerd
mkdir -p "$files/conf.d" /run/systemd/system
printf '#!/bin/sh\nexec runc "$@"\n' >"$files/nvidia-container-runtime"
chmod +x "$files/nvidia-container-runtime"
printf '[Service]\nExecStart=%s --config %s/config.toml\n' "$program" "$files" >/run/systemd/system/containerd.service
cri='plugins."io.containerd.grpc.v1.cri"'
base="version = 2
root = \"$work/root\"
state = \"/run/containerd\"
[$cri.containerd]
  snapshotter = \"native\"
  default_runtime_name = \"runc\"
[$cri.containerd.runtimes.runc]
  runtime_type = \"io.containerd.runc.v2\""
# What `nvidia-ctk runtime configure --runtime=containerd` adds (a drop-in, and the imports line).
drop_in="version = 2
[$cri.containerd]
  snapshotter = \"native\"
  default_runtime_name = \"runc\"
[$cri.containerd.runtimes.runc]
  runtime_type = \"io.containerd.runc.v2\"
[$cri.containerd.runtimes.nvidia]
  runtime_type = \"io.containerd.runc.v2\"
  [$cri.containerd.runtimes.nvidia.options]
    BinaryName = \"$files/nvidia-container-runtime\""
write_files() {  # write_files MAIN [DROP_IN]
  printf '%s\n' "$1" >"$files/config.toml"
  rm -f "$files"/conf.d/*
  [ -z "${2:-}" ] || printf '%s\n' "$2" >"$files/conf.d/99-nvidia.toml"
}
with_imports() { printf 'imports = ["%s/conf.d/*.toml"]\n%s' "$files" "$1"; }

# Started as the unit says; its outcome in $state: started, cri-not-loaded (running without CRI) or refused (it exited).
state=
start_daemon() {
  : >"$work/containerd.log"
  "$program" --config "$files/config.toml" >>"$work/containerd.log" 2>&1 &
  daemon_pid=$!
  state=refused
  for _ in $(seq 100); do
    if ! kill -0 "$daemon_pid" 2>/dev/null; then daemon_pid=; return; fi
    if grep -q "containerd successfully booted" "$work/containerd.log"; then
      state=started
      grep -q 'failed to load plugin io.containerd.grpc.v1.cri' "$work/containerd.log" && state=cri-not-loaded
      return
    fi
    sleep 0.1
  done
}
# The runtimes containerd's CRI plugin says it started with (its log's %+v of the configuration).
loaded_runtimes() {
  grep -o 'Start cri plugin with config .*' "$work/containerd.log" | tail -1 | python3 -c '
import re, sys
line = sys.stdin.read()
runtimes = re.search(r"Runtimes:map\[(.*?)\] NoPivot", line)
print(",".join(sorted(re.findall(r"(?:^| )([\w.-]+):\{Type:", runtimes.group(1)))) if runtimes else "")'
}

# What gpudoctor says, against what containerd did (running, loaded, defined, restart, user).
checker=$(cat <<'PY'
from live_judge import Case
case = Case()
real = case.facts
engines = case.engine("containerd")
daemon = (engines[0] if engines else {}).get("daemon") or {}
running = real.get("running")  # started, cri-not-loaded, no
if real.get("user"):
    for rule in ("containerd-runtime-not-loaded", "containerd-import-missing-at-restart"):
        case.expect(rule, False, "containerd refused to answer this user, which says nothing about it")
    if "permission denied" not in (daemon.get("problem") or ""):
        case.problems.append(f"the refusal is not said: {daemon}")
else:
    if daemon.get("running", False) != (running != "no"):
        case.problems.append(f"containerd {running}; gpudoctor's daemon: {daemon}")
    if daemon.get("answered", False) != (running == "started"):
        case.problems.append(f"containerd's CRI plugin {'loaded' if running == 'started' else 'did not load'}; gpudoctor's daemon: {daemon}")
if "loaded" in real:
    loaded, defined = set(filter(None, real["loaded"].split(","))), set(real["defined"].split(","))
    case.expect("containerd-runtime-not-loaded", bool(defined - loaded), f"containerd loaded {sorted(loaded)}, the files define {sorted(defined)}")
if "restart" in real:
    case.expect("containerd-import-missing-at-restart", real["restart"] == "refused", f"its next start: {real['restart']}")
    case.expect("containerd-default-runtime-undefined-at-restart", real["restart"] == "cri-not-loaded", f"its next start: {real['restart']}")
if running == "no":
    case.expect("containerd-import-missing", True, "containerd did not start on the files")
if running == "cri-not-loaded":
    case.expect("containerd-default-runtime-undefined", True, "containerd's CRI plugin did not load")
case.finish()
PY
)
# judge NAME KEY=VALUE...: gpudoctor's live check (as user=UID where a pair says so) against what containerd did.
judge() { judge_pairs "$@"; }

# 1. Started on runc alone.
write_files "$base"
start_daemon
[ "$state" = started ] || { cat "$work/containerd.log"; skip "containerd does not start here"; }
judge as-started running=started "loaded=$(loaded_runtimes)" defined=runc
# 2. nvidia-ctk's drop-in written, containerd not restarted.
write_files "$(with_imports "$base")" "$drop_in"
judge configured-not-restarted running=started "loaded=$(loaded_runtimes)" defined=nvidia,runc
judge configured-asked-by-another-user user=65534
# 3. Restarted: it loads the drop-in.
stop_daemon
start_daemon
judge restarted "running=$state" "loaded=$(loaded_runtimes)" defined=nvidia,runc
# 4. The default made a runtime nothing defines, under the running containerd; then its next start.
write_files "$(with_imports "$base")" "${drop_in/default_runtime_name = \"runc\"/default_runtime_name = \"nvidia-cdi\"}"
stop_daemon
start_daemon
restart=$state
stop_daemon
write_files "$(with_imports "$base")" "$drop_in"
start_daemon
[ "$state" = started ] || skip "containerd does not start again"
write_files "$(with_imports "$base")" "${drop_in/default_runtime_name = \"runc\"/default_runtime_name = \"nvidia-cdi\"}"
judge default-undefined-while-running running=started "restart=$restart"
stop_daemon
start_daemon
judge default-undefined-after-restart "running=$state"
# 5. An import by name that is not there, under the running containerd; then its next start.
stop_daemon
write_files "$base"
start_daemon
[ "$state" = started ] || skip "containerd does not start again"
write_files "imports = [\"$files/conf.d/nvidia.toml\"]
$base"
judge import-missing-while-running running=started restart=refused
stop_daemon
start_daemon
[ "$state" = refused ] || { echo "  containerd started on a missing import: $state"; failed=$((failed + 1)); }
judge import-missing-after-restart running=no

echo "containerd live: $passed passed, $failed failed"
[ "$failed" = 0 ]
