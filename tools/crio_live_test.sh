#!/usr/bin/env bash
# The live path to a running crio, end to end: crio's files written under
# /etc/crio, a stand-in for crio on its socket, and gpudoctor's live check
# (finding the socket, the crio-config child, the rules) asked each time.
# No CRI-O package exists for Debian 12, so the stand-in is not crio: it
# answers GET /config with a body the test gives it, in the shape crio's
# server/inspect.go gives (BurntSushi/toml's encoding of its configuration,
# served by Go's net/http); what crio would load is the test's premise, not
# observed. Everything the test writes lies in a private mount namespace:
# tmpfs over /run (/var/run/crio/crio.sock, crio.service in
# /run/systemd/system) and /etc/crio.
# Exits 77 (skipped) without root or unshare.
# usage: crio_live_test.sh path/to/gpudoctor
set -u
gpudoctor=$(realpath "$1")
test_name="crio live"
. "$(dirname "$0")/daemon_test_lib.sh"
in_private_namespace "$@"

work=$(mktemp -d /tmp/gpudoctor-crio-live.XXXXXX)
trap 'stop_daemon; rm -rf "$work"' EXIT
mount -t tmpfs tmpfs /run || skip "cannot mount a tmpfs over /run"
mkdir -p /etc/crio && mount -t tmpfs tmpfs /etc/crio || skip "cannot mount a tmpfs over /etc/crio"
[ "$(readlink -f /var/run)" = /run ] || skip "/var/run is not /run here"
programs=/run/gd-crio
mkdir -p "$programs" /etc/crio/crio.conf.d /run/systemd/system /var/run/crio
for runtime in crun runc nvidia-container-runtime; do
  printf '#!/bin/sh\nexit 1\n' >"$programs/$runtime" && chmod +x "$programs/$runtime"
done

# The stand-in: GET /config answers $work/answer as it is at the time, as crio does.
cat >"$work/stand_in.py" <<'PY'
import http.server, os, socketserver, sys
socket_path, answer_path = sys.argv[1:]
class Handler(http.server.BaseHTTPRequestHandler):
    def address_string(self): return "unix"
    def log_message(self, *args): pass
    def do_GET(self):
        if self.path != "/config":
            self.send_error(404, "404 page not found")
            return
        body = open(answer_path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/toml")
        self.end_headers()
        self.wfile.write(body)
class Server(socketserver.UnixStreamServer):
    def get_request(self):
        request, _ = super().get_request()
        return request, ("unix", 0)
if os.path.exists(socket_path): os.unlink(socket_path)
server = Server(socket_path, Handler)
os.chmod(socket_path, 0o600)
print("listening", flush=True)
server.serve_forever()
PY
start_stand_in() {  # start_stand_in SOCKET
  rm -f "$work/stand_in.out"
  python3 "$work/stand_in.py" "$1" "$work/answer" >"$work/stand_in.out" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 100); do grep -q listening "$work/stand_in.out" 2>/dev/null && return 0; sleep 0.05; done
  skip "the stand-in does not listen"
}
# answer DEFAULT RUNTIME...: what crio answers, as BurntSushi/toml encodes it (indented, arrays on one line).
answer() {
  local default=$1 runtime
  shift
  {
    printf '[crio]\n  root = "/var/lib/containers/storage"\n  [crio.api]\n    listen = "/var/run/crio/crio.sock"\n'
    printf '  [crio.runtime]\n    default_runtime = "%s"\n    default_env = ["HTTPS_PROXY=http://u:pw@proxy:3128"]\n' "$default"
    printf '    [crio.runtime.runtimes]\n'
    for runtime in "$@"; do
      printf '      [crio.runtime.runtimes.%s]\n        runtime_config_path = ""\n        runtime_path = "%s/%s"\n        runtime_type = "oci"\n' \
        "$runtime" "$programs" "$([ "$runtime" = nvidia ] && echo nvidia-container-runtime || echo "$runtime")"
    done
    printf '  [crio.image]\n    pause_image = "registry.k8s.io/pause:3.10"\n'
  } >"$work/answer"
}
packaged="[crio.runtime]
default_runtime = \"crun\"
[crio.runtime.runtimes.crun]
runtime_path = \"$programs/crun\"
[crio.runtime.runtimes.runc]
runtime_path = \"$programs/runc\""
nvidia="[crio.runtime.runtimes.nvidia]
runtime_path = \"$programs/nvidia-container-runtime\"
runtime_type = \"oci\""
printf '%s\n' "$packaged" >/etc/crio/crio.conf.d/10-crio.conf

# What gpudoctor says, against the premise: whether each rule fires, where crio is asked, what it answered.
checker=$(cat <<'PY'
import json
from live_judge import Case
case = Case()
expected = case.facts
crio = case.engine("crio")
daemon = crio.get("daemon") or {}
for rule, want in expected.items():
    if rule.startswith("crio-"):
        case.expect(rule, want == "yes", "the premise")
if expected.get("asked") == "no" and crio.get("daemon") is not None:
    case.problems.append(f"asked where no socket is: {crio}")
if expected.get("asked", "no") != "no" and crio.get("socket") != expected["asked"]:
    case.problems.append(f"asked on {crio.get('socket')}, not {expected['asked']}")
if "problem" in expected and expected["problem"] not in (daemon.get("problem") or ""):
    case.problems.append(f"the daemon's problem is not said: {daemon}")
if "answered" in expected and daemon.get("answered", False) != (expected["answered"] == "yes"):
    case.problems.append(f"answered: {daemon}")
if "pw@" in json.dumps(crio):
    case.problems.append("the proxy's credentials reached the report")
case.finish()
PY
)
# judge NAME [user=UID] [asked=SOCKET|no] [problem=TEXT] [answered=yes|no] RULE=yes|no...
judge() { judge_pairs "$@"; }

# 1. No socket: crio is not running, and nothing is asked.
judge not-running asked=no crio-runtime-not-loaded=no
# 2. Running with what the files say.
answer crun crun runc
start_stand_in /var/run/crio/crio.sock
judge as-started asked=/var/run/crio/crio.sock answered=yes crio-runtime-not-loaded=no crio-default-runtime-not-loaded=no
# 3. nvidia-ctk's drop-in written, crio not reloaded; then as a user the socket refuses.
printf '%s\n' "$nvidia" >/etc/crio/crio.conf.d/99-nvidia.toml
judge configured-not-reloaded answered=yes crio-runtime-not-loaded=yes crio-default-runtime-not-loaded=no
judge configured-asked-by-another-user user=65534 answered=no problem="permission denied" crio-runtime-not-loaded=no
# 4. Reloaded: it has nvidia. Then --set-as-default without a reload.
answer crun crun runc nvidia
judge reloaded answered=yes crio-runtime-not-loaded=no crio-default-runtime-not-loaded=no
printf '%s\n[crio.runtime]\ndefault_runtime = "nvidia"\n' "$nvidia" >/etc/crio/crio.conf.d/99-nvidia.toml
judge default-not-reloaded answered=yes crio-default-runtime-not-loaded=yes crio-runtime-not-loaded=no
# 5. The default made a runtime nothing defines while crio runs: a warning; once crio is gone
#    (its socket left behind, nobody listening), a failure.
printf '[crio.runtime]\ndefault_runtime = "nvidia"\n' >/etc/crio/crio.conf.d/99-nvidia.toml
judge default-undefined-while-running answered=yes crio-default-runtime-undefined-at-restart=yes crio-default-runtime-undefined=no
stop_daemon
judge default-undefined-not-running answered=no problem="connection refused" crio-default-runtime-undefined=yes crio-default-runtime-undefined-at-restart=no
# 6. crio.service's --listen names another socket, and what answers there is not crio.
printf '%s\n' "$nvidia" >/etc/crio/crio.conf.d/99-nvidia.toml
printf '[Service]\nExecStart=/usr/bin/crio --listen /run/gd-crio/crio.sock\n' >/run/systemd/system/crio.service
printf 'not toml [\n' >"$work/answer"
start_stand_in /run/gd-crio/crio.sock
judge listen-flag-not-crio asked=/run/gd-crio/crio.sock answered=no problem="[crio.runtime]" crio-runtime-not-loaded=no
stop_daemon

echo "crio live: $passed passed, $failed failed"
[ "$failed" = 0 ]
