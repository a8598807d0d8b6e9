#!/usr/bin/env bash
# The running dockerd judged against dockerd itself: a real dockerd is
# started, daemon.json changed under it the way people change it (written
# after the start, reloaded, broken, restarted), and what gpudoctor's live
# check says each time is compared with what the daemon then does with
# `docker create`, `docker start` and a restart. The programs are the ones
# installed, else Debian's docker.io, containerd and runc unpacked into a
# temporary directory (never installed). Everything the test writes lies in a
# private mount namespace: tmpfs over /run (the pid file and socket) and
# /etc/docker, the daemon's data in a temporary directory.
# Exits 77 (skipped) without root, unshare or the programs.
# usage: dockerd_test.sh path/to/gpudoctor
set -u
gpudoctor=$(realpath "$1")
test_name=dockerd
. "$(dirname "$0")/daemon_test_lib.sh"
in_private_namespace "$@"

work=$(mktemp -d /tmp/gpudoctor-dockerd-test.XXXXXX)
trap 'stop_daemon; rm -rf "$work"' EXIT

for program in dockerd docker containerd runc; do
  command -v "$program" >/dev/null && continue
  mkdir -p "$work/download" "$work/package"
  (cd "$work/download" && timeout 300 apt-get download docker.io containerd runc >/dev/null 2>&1) ||
    skip "$program is not installed and Debian's packages cannot be fetched"
  for deb in "$work"/download/*.deb; do dpkg-deb -x "$deb" "$work/package" || skip "$deb does not unpack"; done
  export PATH="$work/package/usr/sbin:$work/package/usr/bin:$PATH"
  break
done
for program in dockerd docker containerd runc; do command -v "$program" >/dev/null || skip "no $program"; done
mount -t tmpfs tmpfs /run || skip "cannot mount a tmpfs over /run"
mkdir -p /etc/docker && mount -t tmpfs tmpfs /etc/docker || skip "cannot mount a tmpfs over /etc/docker"
echo "dockerd: $(dockerd --version)"

# dockerd as docker.service starts it, minus the networking a test does not need.
start_daemon() {
  dockerd --data-root "$work/data" --iptables=false --ip6tables=false --bridge=none >>"$work/dockerd.log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 150); do
    docker info >/dev/null 2>&1 && return 0
    kill -0 "$daemon_pid" 2>/dev/null || { daemon_pid=; return 1; }
    sleep 0.2
  done
  return 1
}
reload_daemon() {
  kill -HUP "$daemon_pid"
  sleep 1  # dockerd logs the reload's outcome at once; nothing says when it is done
}

# nvidia-ctk runtime configure --runtime=docker --set-as-default, with the toolkit not installed.
daemon_json='{
    "default-runtime": "nvidia",
    "runtimes": {
        "nvidia": {
            "args": [],
            "path": "nvidia-container-runtime"
        }
    }
}'

# What gpudoctor says, against what the daemon did (the facts each case collects in $work/NAME.real).
checker=$(cat <<'PY'
from live_judge import Case
case = Case()
real, daemon = case.facts, case.engine("docker").get("daemon") or {}
running = real.get("running") == "yes"
if running and real.get("asked_as") != "other-user" and not daemon.get("answered"):
    case.problems.append(f"the running daemon was not asked or did not answer: {daemon}")
if "nvidia_runtime" in real:
    # `docker create --runtime nvidia` refused: the running daemon has not loaded it.
    case.expect("docker-runtime-not-loaded", real["nvidia_runtime"] == "refused", f"--runtime nvidia was {real['nvidia_runtime']}")
if "default_runtime" in real:
    # The runtime a container created without --runtime got.
    case.expect("docker-default-runtime-not-loaded", real["default_runtime"] != "nvidia", f"containers get {real['default_runtime']}")
if "default_start" in real:
    # Whether a container created without --runtime failed to start for want of the runtime's program.
    case.expect("docker-default-runtime-program-missing", real["default_start"] == "runtime-missing",
                f"starting a default container: {real['default_start']}")
if "restart" in real:
    case.expect("docker-config-refused-at-restart", running and real["restart"] == "refused", f"a restart was {real['restart']}")
    case.expect("docker-config-refused", not running and real["restart"] == "refused", f"a restart was {real['restart']}")
if real.get("asked_as") == "other-user":
    for rule in ("docker-runtime-not-loaded", "docker-default-runtime-not-loaded", "docker-config-refused-at-restart"):
        case.expect(rule, False, "the daemon refused to answer this user, which says nothing about it")
    if "permission denied" not in (daemon.get("problem") or ""):
        case.problems.append(f"the refusal is not said: {daemon}")
case.finish()
PY
)
# judge NAME [USER]: gpudoctor's live check (as USER where given) against $work/NAME.real.
judge() { judge_report "$1" "$work/$1.real" "${2:-}"; }

# What the daemon does now with a container created with and without --runtime nvidia.
observe() {
  local real=$1 id state
  echo "running=yes" >"$real"
  if docker create --runtime nvidia gd-test:1 /absent >/dev/null 2>"$work/create.err"; then
    echo "nvidia_runtime=accepted" >>"$real"
  else
    echo "nvidia_runtime=refused" >>"$real"
  fi
  id=$(docker create gd-test:1 /absent 2>/dev/null) || return
  echo "default_runtime=$(docker inspect --format '{{.HostConfig.Runtime}}' "$id")" >>"$real"
  # /absent is not in the image: a start that gets as far as runc fails on it; one that fails first names the runtime's program.
  docker start "$id" >/dev/null 2>"$work/start.err"
  if grep -q nvidia-container-runtime "$work/start.err"; then state=runtime-missing; else state=started-or-failed-later; fi
  echo "default_start=$state" >>"$real"
}

start_daemon || { cat "$work/dockerd.log"; skip "dockerd does not start here"; }
mkdir -p "$work/image" && touch "$work/image/marker"
tar -C "$work/image" -c . | docker import - gd-test:1 >/dev/null || skip "docker import failed"

# 1. nvidia-ctk runtime configure, without a restart.
printf '%s\n' "$daemon_json" >/etc/docker/daemon.json
observe "$work/not-restarted.real"
judge not-restarted

# 2. The same daemon, reloaded: it has the runtime and the default now, and no program to run.
reload_daemon
observe "$work/reloaded.real"
judge reloaded

# 3. A user outside the docker group: the daemon refuses to answer, which is no finding.
cp "$work/reloaded.real" "$work/other-user.real"
echo "asked_as=other-user" >>"$work/other-user.real"
judge other-user 65534

# 4. A hand edit breaks the file while it runs: a reload keeps the old configuration, a restart fails.
printf '%s\n' "${daemon_json/\"nvidia-container-runtime\"/\"nvidia-container-runtime\",}" >/etc/docker/daemon.json
reload_daemon
stop_daemon
if start_daemon; then restart=started; else restart=refused; fi
stop_daemon
# The daemon of before the edit, started again on the good file, then the edit made under it.
printf '%s\n' "$daemon_json" >/etc/docker/daemon.json
start_daemon || skip "dockerd does not start again"
printf '%s\n' "${daemon_json/\"nvidia-container-runtime\"/\"nvidia-container-runtime\",}" >/etc/docker/daemon.json
printf 'running=yes\nrestart=%s\n' "$restart" >"$work/broken-while-running.real"
judge broken-while-running
stop_daemon
printf 'running=no\nrestart=%s\n' "$restart" >"$work/broken-stopped.real"
judge broken-stopped

echo "dockerd: $passed passed, $failed failed"
[ "$failed" = 0 ]
