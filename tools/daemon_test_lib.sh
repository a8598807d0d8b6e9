# Sourced by the tests that judge gpudoctor against a running daemon
# (dockerd_test.sh, containerd_test.sh, containerd_live_test.sh; crio_live_test.sh, whose daemon is a stand-in).

# skip WHY: the test cannot run here (exit 77, which the test command counts as skipped).
skip() { echo "$test_name: skipped: $*"; exit 77; }

# in_private_namespace "$@": as root, run the rest of the test again in a
# private mount namespace (what it mounts there is gone when it ends).
in_private_namespace() {
  [ "$(id -u)" = 0 ] || skip "not root"
  command -v unshare >/dev/null || skip "no unshare"
  if [ -z "${GPUDOCTOR_TEST_NAMESPACE:-}" ]; then
    GPUDOCTOR_TEST_NAMESPACE=1 exec unshare --mount --propagation private bash "$0" "$@"
  fi
}

# live_check OUT [USER]: $gpudoctor's live check (--no-probe) as JSON in OUT,
# as USER with no supplementary groups where given.
live_check() {
  if [ -n "${2:-}" ]; then
    setpriv --reuid "$2" --regid "$2" --clear-groups "$gpudoctor" check --no-probe --format json >"$1" 2>/dev/null
  else
    "$gpudoctor" check --no-probe --format json >"$1" 2>/dev/null
  fi
}

# judge_report NAME FACTS [USER]: $gpudoctor's live check (as USER where given)
# judged by the test's $checker, Python that reads it through tools/live_judge.py,
# against FACTS, a file of KEY=VALUE lines; counted in $passed and $failed.
tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
passed=0
failed=0
judge_report() {
  live_check "$work/$1.json" "${3:-}"
  if PYTHONPATH="$tools" python3 -c "$checker" "$work/$1.json" "$2" "$1"; then
    passed=$((passed + 1)); echo "  $1: ok"
  else
    failed=$((failed + 1))
  fi
}
# judge_pairs NAME KEY=VALUE...: judge_report with the pairs as its facts (user=UID: asked as that user).
judge_pairs() {
  local name=$1
  shift
  printf '%s\n' "$@" >"$work/$name.facts"
  judge_report "$name" "$work/$name.facts" "$(sed -n 's/^user=//p' "$work/$name.facts")"
}

# The daemon a test started ($daemon_pid), stopped: TERM, then KILL after 20 s.
daemon_pid=
stop_daemon() {
  [ -n "$daemon_pid" ] || return 0
  kill "$daemon_pid" 2>/dev/null
  for _ in $(seq 200); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$daemon_pid" 2>/dev/null
  daemon_pid=
}

# containerd_program WORK: $program, containerd on PATH, else Debian's package
# unpacked below WORK (never installed: no service starts); skips where neither is at hand.
containerd_program() {
  program=$(command -v containerd || true)
  if [ -z "$program" ]; then
    (cd "$1" && timeout 120 apt-get download containerd >/dev/null 2>&1) || skip "containerd is not installed and its package cannot be fetched"
    dpkg-deb -x "$1"/containerd_*.deb "$1/package" || skip "the containerd package does not unpack"
    program="$1/package/usr/bin/containerd"
  fi
  [ -x "$program" ] || skip "no containerd program"
}
