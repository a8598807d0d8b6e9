#!/usr/bin/env bash
# End-to-end checks of the real binary: exit codes, stdout holding only the
# report, snapshot -> replay on this very machine, NO_COLOR, and bad input.
# usage: cli_test.sh path/to/gpudoctor path/to/testdata path/to/scenarios (build/testdata/snapshots)
set -u
gpudoctor=$1
testdata=$2
scenarios=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

check() {  # check NAME COMMAND... : the command must succeed
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}

exit_is() {  # exit_is WANT COMMAND...
  local want=$1
  shift
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [ "$got" = "$want" ] || { echo "  exit $got, wanted $want: $*"; cat "$work/err"; return 1; }
}

json_field() {  # json_field FILE KEY -> prints the top-level value
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print("null" if v is None else v)' "$1" "$2"
}

check "ok scenario exits 0" exit_is 0 "$gpudoctor" check --replay "$scenarios/host-healthy-h100"
check "warn scenario exits 0" exit_is 0 "$gpudoctor" check --replay "$scenarios/host-pcie-degraded"
check "fail scenario exits 1" exit_is 1 "$gpudoctor" check --replay "$scenarios/host-no-gpu"
check "bad usage exits 2" exit_is 2 "$gpudoctor" check --format yaml
check "missing snapshot exits 2" exit_is 2 "$gpudoctor" check --replay "$work/nothing-here"
check "a missing archive is named as the user named it" exit_is 2 "$gpudoctor" check --replay "$work/missing.tar.gz"
check "  not as a snapshot.json inside it" bash -c 'grep -q "missing.tar.gz: No such file or directory" "$1" && ! grep -q "snapshot.json" "$1"' _ "$work/err"
check "explain: neither a rule, a code nor known text exits 1" exit_is 1 "$gpudoctor" explain no-such-rule
# --smoke that cannot run is reported (and is exit 2 under --strict), never silently ignored.
check "smoke on a replay recorded without it: warns" exit_is 0 "$gpudoctor" check --smoke --replay "$scenarios/host-nvidia-smi-banner-healthy"
check "smoke not run: the report says why" grep -q "recorded without --smoke" "$work/out"
check "smoke not run under --strict exits 2" exit_is 2 "$gpudoctor" check --smoke --strict --replay "$scenarios/host-nvidia-smi-banner-healthy"
check "smoke recorded in the snapshot: replayed, exit 0 under --strict" exit_is 0 "$gpudoctor" check --smoke --strict --replay "$scenarios/host-healthy-h100"
check "smoke in a static build: says the glibc build runs it" exit_is 0 "$gpudoctor" check --smoke --replay "$scenarios/host-static-build"
check "smoke in a static build: names why" grep -q "static build" "$work/out"

"$gpudoctor" gpus --replay "$scenarios/host-hgx-8gpu-nvswitch" --format csv >"$work/gpus.csv" 2>"$work/err"
check "gpus csv: a header and eight rows" test "$(wc -l <"$work/gpus.csv")" = 9
check "gpus csv rows say their source" test "$(cut -d, -f14 "$work/gpus.csv" | sort -u | tr '\n' ' ')" = "nvml source "
"$gpudoctor" explain "CUDA error: Error 804: forward compatibility was attempted on non supported HW" \
  --replay "$scenarios/container-compat-on-geforce" >"$work/explain.txt" 2>&1
check "explain: pasted 804 names its signature" grep -q "^compat-not-supported (layer driver-libs)" "$work/explain.txt"
check "explain: says which cause holds in the snapshot" grep -q "here:    compat-on-unsupported-gpu and cuda-init-compat-refused hold" "$work/explain.txt"
echo "torch says: Found no NVIDIA driver on your system" | "$gpudoctor" explain - >"$work/explain2.txt"
check "explain -: reads the text from stdin" grep -q "^torch-no-driver" "$work/explain2.txt"
# An endless stream is read only so far, and said so (it used to never answer).
timeout 20 "$gpudoctor" explain - </dev/zero >"$work/explain3.txt" 2>"$work/explain3.err"
check "explain - on an endless stream answers" test $? = 1
check "explain - on an endless stream says it stopped" grep -q "first 1 MiB of standard input" "$work/explain3.err"
check "explain: unknown text exits 1" exit_is 1 "$gpudoctor" explain "all is well"
check "diff: a snapshot against itself exits 0" exit_is 0 "$gpudoctor" diff "$scenarios/host-healthy-h100" "$scenarios/host-healthy-h100"
"$gpudoctor" check --replay "$scenarios/host-healthy-h100" --format json >"$work/a.json"
"$gpudoctor" diff "$work/a.json" "$scenarios/host-nvidia-smi-crashes" --format json >"$work/diff.json"
check "diff: a saved report against a snapshot, as JSON" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["b"]["verdict"] == "fail" and any(l["id"] == "driver-libs" and l["status_b"] == "fail" for l in d["layers"])' "$work/diff.json"
check "diff: a file that is no report exits 2" exit_is 2 "$gpudoctor" diff "$testdata/healthy-guards.json" "$work/a.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["padding"]="x"*(9<<20); json.dump(d,open(sys.argv[2],"w"))' "$work/a.json" "$work/huge.json"
check "diff: a report past 8 MB is refused, not parsed" exit_is 2 "$gpudoctor" diff "$work/huge.json" "$work/a.json"
check "  and says why" grep -q "larger than the 8 MB a report is read to" "$work/err"
"$gpudoctor" check --replay "$scenarios/host-gpu-rows-exhausted" --format prometheus >"$work/metrics.prom"
check "prometheus: gpudoctor_ok 0 on a failing node" grep -qx "gpudoctor_ok 0" "$work/metrics.prom"
check "prometheus: the failing layer" grep -qx 'gpudoctor_failing_layer{layer="hardware"} 1' "$work/metrics.prom"
# The official client's text-format parser (python3-prometheus-client) reads it as node_exporter would.
if python3 -c 'import prometheus_client' 2>/dev/null; then
  check "prometheus: the Prometheus text-format parser reads every family" python3 -c '
import sys
from prometheus_client.parser import text_string_to_metric_families
families = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
assert {"gpudoctor_ok", "gpudoctor_verdict", "gpudoctor_layer_status", "gpudoctor_finding", "gpudoctor_root_cause",
        "gpudoctor_gpu_info", "gpudoctor_check_duration_seconds", "gpudoctor_check_info", "gpudoctor_build_info"} <= set(families), families.keys()
assert [s.labels["rule"] for s in families["gpudoctor_root_cause"].samples] == ["gpu-row-remapping-failed"]
import re
gpus = families["gpudoctor_gpu_info"].samples
assert gpus and all(re.fullmatch(r"[0-9A-F]{8}:[0-9A-F]{2}:[0-9A-F]{2}\.[0-7]", s.labels["pci_bus_id"]) for s in gpus), gpus
assert families["gpudoctor_check_duration_seconds"].samples[0].value > 0
assert [s.value for s in families["gpudoctor_ok"].samples] == [0]
fail = [s for s in families["gpudoctor_verdict"].samples if s.labels["verdict"] == "fail"]
assert fail[0].value == 1
rules = {s.labels["rule"] for s in families["gpudoctor_finding"].samples}
assert "gpu-row-remapping-failed" in rules, rules
assert len([s for s in families["gpudoctor_layer_status"].samples if s.value == 1]) == 7
' "$work/metrics.prom"
fi
check "line: the closing line alone, exit 1 on fail" exit_is 1 "$gpudoctor" check --replay "$scenarios/host-gpu-rows-exhausted" --format line
check "line: one line" test "$(wc -l <"$work/out")" = 1
check "--target: a library's GPU code against the GPU" exit_is 1 "$gpudoctor" check --format line \
  --replay "$scenarios/host-rtx5090-torch-cu124" --target /opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so
check "--target: names the file" grep -q "^FAIL at application \[fix-configuration\]: libtorch_cuda.so carries GPU code for sm_50" "$work/out"
# The markdown report rendered by GitHub's own renderer (cmark-gfm), raw HTML
# let through as the worst case: a hostile CUDA_VISIBLE_DEVICES stays text.
if command -v cmark-gfm >/dev/null; then
  CUDA_VISIBLE_DEVICES='0,</details><script>alert(1)</script><img src=x onerror=alert(2)>' \
    "$gpudoctor" check --replay "$scenarios/host-healthy-h100" --format markdown >"$work/report.md"
  CUDA_VISIBLE_DEVICES='0,</details><script>alert(1)</script><img src=x onerror=alert(2)>' \
    "$gpudoctor" check --format markdown >"$work/live.md"
  for report in "$work/report.md" "$work/live.md"; do
    cmark-gfm --unsafe -e table "$report" >"$work/report.html"
    check "markdown renders without script or img from the system ($(basename "$report"))" \
      bash -c '! grep -q -e "<script" -e "<img" "$1"' _ "$work/report.html"
    check "markdown renders one details block and the layer table ($(basename "$report"))" \
      test "$(grep -o -e "<details>" -e "</details>" -e "<table>" "$work/report.html" | sort | uniq -c | tr -s " " | tr "\n" ";")" = " 1 </details>; 1 <details>; 1 <table>;"
  done
  check "markdown escapes it as text" grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$work/report.html"
else
  echo "SKIP: markdown rendering (cmark-gfm is not installed)"
fi
check "--image: --gpu needs --image" exit_is 2 "$gpudoctor" check --gpu 2330
check "--image: a bad --gpu is exit 2" exit_is 2 "$gpudoctor" check --image --replay "$scenarios/image-healthy-on-its-host" --gpu H100
check "--image: a CUDA 13 image on a 550 host fails" exit_is 1 "$gpudoctor" check --image --format line \
  --replay "$scenarios/image-runtime-newer-than-host" --gpu 2330 --host-driver 550.54.15
check "--image: ... and says so at the image's own layer (the toolkit would refuse it at start)" grep -q "^FAIL at image-config \[fix-configuration\]: The image.s requirement CUDA_VERSION is not met" "$work/out"
check "--image --strict: a warning fails" exit_is 1 "$gpudoctor" check --image --strict --replay "$scenarios/image-bakes-driver-libraries"
check "--image: without --strict a warning passes" exit_is 0 "$gpudoctor" check --image --replay "$scenarios/image-bakes-driver-libraries"
check "lint: a Dockerfile with mistakes exits 1" exit_is 1 "$gpudoctor" lint "$testdata/dockerfiles/mistakes.Dockerfile"
check "lint: file:line: severity id" grep -q "mistakes.Dockerfile:4: fail dockerfile-stubs-on-loader-path" "$work/out"
check "lint: the corrected line" grep -q "  corrected: ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64$" "$work/out"
check "lint: a healthy Dockerfile exits 0" exit_is 0 "$gpudoctor" lint "$testdata/dockerfiles/healthy.Dockerfile"
check "lint: json" python3 -c 'import json,subprocess,sys; d=json.loads(subprocess.run([sys.argv[1],"lint",sys.argv[2],"--format","json"],capture_output=True).stdout); assert len(d["findings"]) == 7' "$gpudoctor" "$testdata/dockerfiles/mistakes.Dockerfile"
check "lint: a compose file with mistakes exits 1" exit_is 1 "$gpudoctor" lint "$testdata/compose/mistakes.compose.yaml"
"$gpudoctor" lint "$testdata/compose/mistakes.compose.yaml" >"$work/out" 2>&1
check "lint: compose file:line: severity id" grep -q "mistakes.compose.yaml:17: fail compose-capabilities-without-compute" "$work/out"
check "lint: compose's corrected line" grep -q "  corrected:               capabilities: \[gpu, utility, compute\]$" "$work/out"
check "lint: a CDI compose file is clean" exit_is 0 "$gpudoctor" lint "$testdata/compose/healthy-cdi.compose.yaml"
check "lint: a missing compose file exits 2" exit_is 2 "$gpudoctor" lint "$work/no-such/compose.yaml"
# The Kubernetes files parse, and NPD's rule calls gpudoctor with the exit-status contract it expects.
containers=$(dirname "$testdata")/containers/kubernetes
check "kubernetes: the NPD config parses" python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); r=c["rules"][0]; assert c["plugin"] == "custom" and r["path"].endswith("/gpudoctor") and r["args"] == ["check", "--format", "line"]' "$containers/npd-gpudoctor-monitor.json"
# (The DaemonSet, the image it names and NPD's set-up are checked together by tools/manifest_test.py.)
# containers/: the Dockerfiles and the compose example pass our own lint, and
# the entrypoint pre-flight honours gpudoctor's exit status.
examples=$(dirname "$testdata")/containers
for dockerfile in "$examples/Dockerfile.static" "$examples"/examples/*.Dockerfile; do
  check "containers: $(basename "$dockerfile") lints clean" exit_is 0 "$gpudoctor" lint --strict "$dockerfile"
done
check "containers: the compose example lints clean" exit_is 0 "$gpudoctor" lint --strict "$examples/examples/compose.yaml"
preflight="$examples/examples/gpu-preflight.sh"
check "preflight: the script is valid sh" sh -n "$preflight"
GPUDOCTOR="$gpudoctor" GPUDOCTOR_ARGS="--replay $scenarios/host-healthy-h100" sh "$preflight" echo started >"$work/pf.out" 2>"$work/pf.err"
check "preflight: a healthy GPU starts the workload" test "$(cat "$work/pf.out")" = started
check "preflight: the JSON report goes to the log" python3 -c 'import json,sys; t=open(sys.argv[1]).read(); assert json.loads(t[:t.rindex("}")+1])["verdict"] == "ok"' "$work/pf.err"
check "preflight: a failing layer stops it with exit 1" exit_is 1 env GPUDOCTOR="$gpudoctor" GPUDOCTOR_ARGS="--replay $scenarios/host-no-gpu" sh "$preflight" touch "$work/pf-started"
check "preflight: and the workload never ran" test ! -e "$work/pf-started"
GPUDOCTOR="$gpudoctor" GPUDOCTOR_ARGS="--replay $work/no-such-snapshot" sh "$preflight" echo started >"$work/pf.out" 2>/dev/null
check "preflight: gpudoctor unable to run (2) still starts it" test "$(cat "$work/pf.out")" = started
check "preflight: unless GPUDOCTOR_PREFLIGHT=strict" exit_is 2 env GPUDOCTOR="$gpudoctor" GPUDOCTOR_PREFLIGHT=strict GPUDOCTOR_ARGS="--replay $work/no-such-snapshot" sh "$preflight" true
check "preflight: GPUDOCTOR_PREFLIGHT=off skips the check" exit_is 0 env GPUDOCTOR=/nonexistent GPUDOCTOR_PREFLIGHT=off sh "$preflight" true
check "NPD contract: OK is 0" exit_is 0 "$gpudoctor" check --format line --replay "$scenarios/host-healthy-h100"
check "NPD contract: NonOK is 1" exit_is 1 "$gpudoctor" check --format line --replay "$scenarios/host-gpu-rows-exhausted"
check "NPD contract: Unknown is 2" exit_is 2 "$gpudoctor" check --format line --replay "$work/no-such-snapshot"
# gpudoctor(1) and the completions are built from --help (docs/meson.build).
build_dir=$(dirname "$gpudoctor")
check "man page: built, with every command" bash -c 'for c in check snapshot lint diff gpus explain resolve; do grep -q "gpudoctor $c" "$1" || exit 1; done' _ "$build_dir/docs/gpudoctor.1"
check "bash completion: offers check's options" bash -c 'source "$1"; COMP_WORDS=(gpudoctor check --ho); COMP_CWORD=2; _gpudoctor; [ "${COMPREPLY[*]}" = "--host-driver" ]' _ "$build_dir/docs/gpudoctor"
check "bash completion: --format's values for gpus" bash -c 'source "$1"; COMP_WORDS=(gpudoctor gpus --format ""); COMP_CWORD=3; _gpudoctor; [ "${COMPREPLY[*]}" = "text json csv" ]' _ "$build_dir/docs/gpudoctor"
check "bash completion: --color's values" bash -c 'source "$1"; COMP_WORDS=(gpudoctor check --color a); COMP_CWORD=3; _gpudoctor; [ "${COMPREPLY[*]}" = "auto always" ]' _ "$build_dir/docs/gpudoctor"
check "bash completion: rule ids after explain" bash -c 'source "$1"; COMP_WORDS=(gpudoctor explain no-nvidia); COMP_CWORD=2; _gpudoctor; [ "${COMPREPLY[*]}" = "no-nvidia-gpu" ]' _ "$build_dir/docs/gpudoctor"
check "bash completion: directories get their slash (-o filenames)" grep -q "complete -o filenames -F _gpudoctor gpudoctor" "$build_dir/docs/gpudoctor"
check "zsh completion: commands with descriptions" grep -q "'check:diagnose this machine" "$build_dir/docs/_gpudoctor"
check "an option of another command is refused by name" exit_is 2 "$gpudoctor" resolve /bin/sh --strict
check "  and says whose it is not" grep -q -- "--strict is not an option of resolve" "$work/err"
check "a typo'd option gets the nearest" exit_is 2 "$gpudoctor" check --no-prob
check "  (did you mean)" grep -q -- "did you mean --no-probe?" "$work/err"
# gpus --watch keeps reading until stopped; in CSV the header comes once.
timeout 3 "$gpudoctor" gpus --watch 1 --format csv --no-probe >"$work/watch.csv" 2>"$work/watch.err"
check "gpus --watch runs until stopped" test $? = 124
check "gpus --watch: one CSV header, with a time column" test "$(grep -c '^time,index,' "$work/watch.csv")" = 1
# An answer that cannot be written is an error (exit 2, said on stderr), and ends a watch.
check "gpus into a full disk exits 2" bash -c '"$1" gpus --replay "$2" >/dev/full 2>"$3"; [ $? = 2 ] && grep -q "cannot write the answer" "$3"' _ "$gpudoctor" "$scenarios/h200-healthy" "$work/full.err"
check "check into a full disk exits 2" bash -c '"$1" check --replay "$2" >/dev/full 2>/dev/null; [ $? = 2 ]' _ "$gpudoctor" "$scenarios/h200-healthy"
check "gpus --watch ends when its reader has gone (SIGPIPE ignored)" bash -c 'trap "" PIPE; timeout 10 "$1" gpus --watch 1 --no-probe 2>"$2" | head -c 1 >/dev/null; [ "${PIPESTATUS[0]}" = 2 ] && grep -q "cannot write the answer" "$2"' _ "$gpudoctor" "$work/pipe.err"
check "gpus --watch into a full disk ends at once" bash -c 'timeout 10 "$1" gpus --watch 1 --no-probe >/dev/full 2>/dev/null; [ $? = 2 ]' _ "$gpudoctor"
# A path that holds a terminal's escape and bell (and a byte that is no UTF-8) reaches no report raw.
hostile_dir=$'/opt/\e[31mevil\a\xff'
mkdir -p "$work/hostile-root$hostile_dir"
cp "$scenarios/host-healthy-h100/root/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15" "$work/hostile-root$hostile_dir/libcuda.so.1"
for format in "text -v" markdown line; do
  check "no raw ESC or BEL from a hostile path: check --format $format" bash -c 'LD_LIBRARY_PATH="$3" "$1" check --root "$2" --color never --format $4 2>/dev/null | grep -q -P "[\x1b\x07]" && exit 1; exit 0' _ "$gpudoctor" "$work/hostile-root" "$hostile_dir" "$format"
done
check "no raw ESC or BEL from a hostile path: resolve" bash -c '"$1" resolve --root "$2" "$3/libcuda.so.1" 2>/dev/null | grep -q -P "[\x1b\x07]" && exit 1; exit 0' _ "$gpudoctor" "$work/hostile-root" "$hostile_dir"
check "resolve --format json of a hostile path is strict UTF-8 JSON" bash -c '"$1" resolve --root "$2" "$3/libcuda.so.1" --format json 2>/dev/null | python3 -c "import json,sys; json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))"' _ "$gpudoctor" "$work/hostile-root" "$hostile_dir"
check "gpus refuses markdown" exit_is 2 "$gpudoctor" gpus --format markdown
check "  and lists what gpus prints" grep -q -- "--format for gpus is text, json or csv" "$work/err"
check "check refuses csv" exit_is 2 "$gpudoctor" check --format csv
check "--smoke with --no-probe is refused" exit_is 2 "$gpudoctor" check --smoke --no-probe

"$gpudoctor" check --replay "$scenarios/host-no-gpu" --format json >"$work/report.json" 2>"$work/err"
check "json stdout is only the report" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/report.json"
check "json names the failing layer" test "$(json_field "$work/report.json" failing_layer)" = hardware
# One line into a pipe or a log (a pre-flight's report per container start),
# indented on a terminal and into --output's file, which people read.
check "json into a pipe is one line" test "$(wc -l <"$work/report.json")" = 1
"$gpudoctor" check --replay "$scenarios/host-no-gpu" --format json --output "$work/report-file.json"
check "json into --output is indented" test "$(wc -l <"$work/report-file.json")" -gt 20
if command -v script >/dev/null; then
  script -qec "$gpudoctor check --replay $scenarios/host-no-gpu --format json" /dev/null >"$work/report-tty.json"
  check "json on a terminal is indented" test "$(wc -l <"$work/report-tty.json")" -gt 20
fi
check "json numbers are plain decimals, never 7E2" python3 -c '
import json, sys
floats = []
json.load(open(sys.argv[1]), parse_float=lambda raw: floats.append(raw) or float(raw))
assert floats and not [f for f in floats if "e" in f.lower()], floats' "$work/a.json"

NO_COLOR=1 "$gpudoctor" check --replay "$scenarios/host-no-gpu" --color always >"$work/text" 2>&1
check "--color always beats NO_COLOR (no-color.org)" grep -q $'\033' "$work/text"
"$gpudoctor" check --replay "$scenarios/host-no-gpu" --color always >"$work/text" 2>&1
check "--color always colours" grep -q $'\033\[31m' "$work/text"
"$gpudoctor" check --replay "$scenarios/host-no-gpu" --format markdown >"$work/md" 2>&1
check "markdown has the summary table" grep -q '^| | Layer | Status | Summary |' "$work/md"

# This machine, live: snapshot it, then replay; both must reach the same verdict.
"$gpudoctor" check --format json >"$work/live.json"
check "live check gives a verdict" test -n "$(json_field "$work/live.json" verdict)"
check "snapshot succeeds" exit_is 0 "$gpudoctor" snapshot --output "$work/snap"
"$gpudoctor" check --replay "$work/snap" --format json >"$work/replayed.json"
check "replay of this machine matches live verdict" \
  test "$(json_field "$work/live.json" verdict)/$(json_field "$work/live.json" failing_layer)" = \
       "$(json_field "$work/replayed.json" verdict)/$(json_field "$work/replayed.json" failing_layer)"
check "snapshot refuses a non-empty output directory" exit_is 2 "$gpudoctor" snapshot --output "$work/snap"
# One file to attach: a .tar.gz that tar unpacks into a snapshot directory, and that replays as it is.
check "snapshot writes a .tar.gz" exit_is 0 "$gpudoctor" snapshot --output "$work/node.tar.gz"
check "the archive unpacks with tar into node/" bash -c "cd '$work' && tar xzf node.tar.gz && test -f node/snapshot.json"
"$gpudoctor" check --replay "$work/node.tar.gz" --format json >"$work/from-archive.json"
check "replay of the archive matches live verdict" \
  test "$(json_field "$work/live.json" verdict)/$(json_field "$work/live.json" failing_layer)" = \
       "$(json_field "$work/from-archive.json" verdict)/$(json_field "$work/from-archive.json" failing_layer)"
check "a redacted report says so" python3 -c 'import json,sys; assert "redacted" in json.load(open(sys.argv[1]))' "$work/from-archive.json"
check "snapshot refuses to overwrite an archive" exit_is 2 "$gpudoctor" snapshot --output "$work/node.tar.gz"
# A variable holding bytes that are not UTF-8 keeps snapshot.json strict UTF-8, and replays byte for byte.
check "snapshot of a variable that is not UTF-8" exit_is 0 env "CUDA_HOME=/opt/$(printf '\377\033')cuda" "$gpudoctor" snapshot --output "$work/bytes"
check "its snapshot.json is strict UTF-8 and holds the bytes" python3 -c 'import json,sys; v=json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))["env"]["CUDA_HOME"]; assert v == "\0/opt/\\xff\x1bcuda", repr(v)' "$work/bytes/snapshot.json"
"$gpudoctor" check --replay "$work/bytes" --format json >"$work/bytes.json"
check "and replays to the live verdict" test "$(json_field "$work/live.json" verdict)" = "$(json_field "$work/bytes.json" verdict)"
# A file name with an escape sequence is shown escaped, in findings and in errors alike.
esc_name="$work/x$(printf '\033')[31mred.Dockerfile"
printf 'FROM nvidia/cuda:12.4.0-base-ubuntu22.04\nENV NVIDIA_VISIBLE_DEVICES=none\n' >"$esc_name"
"$gpudoctor" lint "$esc_name" >"$work/esc.out" 2>&1
check "lint shows an escape in a file name escaped" grep -qF 'x\x1b[31mred.Dockerfile:2:' "$work/esc.out"
"$gpudoctor" check --replay "$esc_name" >"$work/esc2.out" 2>&1
check "an error shows it escaped too" grep -qF 'x\x1b[31mred.Dockerfile' "$work/esc2.out"
check "no raw escape reaches the terminal" bash -c "! grep -q \$'\\033' '$work/esc.out' '$work/esc2.out'"
# A FIFO or a device named as input is refused at once, never waited on.
mkfifo "$work/fifo"
check "lint refuses a FIFO" exit_is 2 timeout 10 "$gpudoctor" lint "$work/fifo"
check "lint says why" grep -q "not a regular file" "$work/err"
check "diff refuses a device" exit_is 2 timeout 10 "$gpudoctor" diff /dev/zero /dev/zero
# A dangling symlink at the output is something there: refused, and left as it was (it used to be replaced).
ln -s "$work/nowhere" "$work/dangling.tar.gz"
check "snapshot refuses a dangling symlink at its output" exit_is 2 "$gpudoctor" snapshot --output "$work/dangling.tar.gz"
check "the dangling symlink is left as it was" test "$(readlink "$work/dangling.tar.gz")" = "$work/nowhere"
printf 'not an archive' >"$work/fake.tar.gz"
check "a file that is no archive exits 2" exit_is 2 "$gpudoctor" check --replay "$work/fake.tar.gz"
check "diff reads archives" exit_is 0 "$gpudoctor" diff "$work/node.tar.gz" "$work/node"

mkdir -p "$work/rules/layers"
cp -r "$testdata/../rules/tables" "$work/rules/"
printf '{\n  "rules": [\n    { "id": "x", oops }\n  ]\n}\n' >"$work/rules/layers/broken.json"
"$gpudoctor" check --rules "$work/rules" >"$work/out" 2>"$work/err"
check "a broken rules file exits 2" test $? = 2
check "and names file and line" grep -q 'broken.json:3:' "$work/err"
# Rules are checked against the fact reference: a misspelt path or a value a
# closed set never takes would otherwise never fire, silently.
rm -rf "$work/rules" && cp -r "$testdata/../rules" "$work/rules"
sed -i 's/"container.visible_devices.mode"/"container.visible_devices.mod"/' "$work/rules/layers/container.json"
check "a rule naming no fact exits 2" exit_is 2 "$gpudoctor" check --rules "$work/rules" --replay "$scenarios/host-healthy-h100"
check "and names the rule and the path" grep -q 'rule "container-[a-z-]*": a condition names "container.visible_devices.mod", which is no fact' "$work/err"
cp "$testdata/../rules/layers/container.json" "$work/rules/layers/container.json"
sed -i 's/"eq": "void"/"eq": "voided"/' "$work/rules/layers/container.json"
check "a value the fact never takes exits 2" exit_is 2 "$gpudoctor" check --rules "$work/rules" --replay "$scenarios/host-healthy-h100"
check "and lists the values it takes" grep -q 'is never "voided" (it is one of: unset, empty, void, none' "$work/err"
# Each misspelling is refused where the rule is loaded, naming the rule, the fact and what it allows.
misspelt() {  # FILE FROM TO: the built-in rules with one literal changed
  rm -rf "$work/rules" && cp -r "$testdata/../rules" "$work/rules"
  sed -i "s/$2/$3/" "$work/rules/layers/$1"
  ! cmp -s "$work/rules/layers/$1" "$testdata/../rules/layers/$1" || { echo "no '$2' in $1"; return 1; }
  "$gpudoctor" check --rules "$work/rules" --replay "$scenarios/host-healthy-h100" >"$work/out" 2>"$work/err"
}
misspelt kernel-module.json '"kernel-module.flavour", "eq": "open"' '"kernel-module.flavour", "eq": "opne"'
check "kernel-module.flavour eq \"opne\" exits 2" test $? = 2
check "and says the flavours" grep -q '"kernel-module.flavour" is never "opne" (it is one of: open, proprietary)' "$work/err"
misspelt driver-libs.json '"driver-libs.driver_container.state", "eq": "empty"' '"driver-libs.driver_container.state", "eq": "emtpy"'
check "driver_container.state eq \"emtpy\" exits 2" test $? = 2
check "and says the states" grep -q 'is never "emtpy" (it is one of: running, empty)' "$work/err"
misspelt container.json '"hardware.gpu_count", "gt": 0' '"hardware.gpu_count", "gt": "zero"'
check "hardware.gpu_count gt \"zero\" exits 2" test $? = 2
check "and says it is a number" grep -q 'rule "[a-z-]*": "hardware.gpu_count" is an integer, never "zero"' "$work/err"

# check --output: the report goes to a file, replaced whole (the textfile collector's rule).
mkdir -p "$work/textfile"
printf 'old\n' >"$work/textfile/gpudoctor.prom"
check "check --output writes the report and keeps the exit status" \
  exit_is 1 "$gpudoctor" check --replay "$scenarios/host-no-gpu" --format prometheus --output "$work/textfile/gpudoctor.prom"
check "the file holds the metrics, and no temporary file is left" \
  bash -c "grep -q '^gpudoctor_verdict{verdict=\"fail\"} 1' '$work/textfile/gpudoctor.prom' && test \$(ls '$work/textfile' | wc -l) = 1"
check "check --output into a missing directory exits 2" \
  exit_is 2 "$gpudoctor" check --replay "$scenarios/host-no-gpu" --output "$work/no/such/dir/report.txt"

"$gpudoctor" rules --format json >"$work/rules.json"
check "rules lists every rule as JSON" python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["rules"]) >= 30' "$work/rules.json"
check "explain prints a rule" bash -c "'$gpudoctor' explain device-open-denied | grep -q 'source:'"
explained=0
for rule in $(python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(open(sys.argv[1]))["rules"]))' "$work/rules.json"); do
  "$gpudoctor" explain "$rule" | grep -q '^  source: ' && explained=$((explained + 1))
done
check "explain prints every rule with its source" test "$explained" -ge 60
check "explain names an error code's layer" bash -c "'$gpudoctor' explain 803 | grep -q 'layer:   driver-libs'"

"$gpudoctor" resolve /bin/sh --format json >"$work/resolve.json"
check "resolve lists libc with how it was found" python3 -c '
import json, sys
libraries = json.load(open(sys.argv[1]))["libraries"]
assert any(l["name"] == "libc.so.6" and l["path"] and l["via"] and l["tried"] for l in libraries)' "$work/resolve.json"
check "resolve of a non-ELF file exits 2" exit_is 2 "$gpudoctor" resolve "$scenarios/host-no-gpu/expected.json"
check "resolve inside a snapshot" exit_is 0 "$gpudoctor" resolve /usr/lib/x86_64-linux-gnu/libcuda.so.1 --replay "$scenarios/host-healthy-h100"

# The application layer's two ways out of a framework built for a newer CUDA than the driver.
"$gpudoctor" check --replay "$scenarios/host-torch-cu124-on-470" >"$work/two-way.txt"
check "framework too new for the driver: the driver it needs, or the build this driver runs" \
  grep -q "upgrade the driver to 525.60.13 or newer, or install torch 2.5.1+cu118: \`pip install --force-reinstall torch==2.5.1 --index-url https://download.pytorch.org/whl/cu118\`" "$work/two-way.txt"
"$gpudoctor" check --replay "$scenarios/host-vllm-torchvision-match-torch" >"$work/frameworks.txt"
check "the application line names each framework: CUDA build, architectures, verdict for the GPU, libraries" \
  grep -q "torch 2.5.1+cu124 (CUDA 12.4, 4 CUDA libraries found); vllm 0.6.4.post1 (CUDA 12, 6 architectures, SASS for the GPU, 1 CUDA library found)" "$work/frameworks.txt"
"$gpudoctor" check --replay "$scenarios/host-vllm-torchvision-match-torch" --format json >"$work/frameworks.json"
check "json names each framework's version, CUDA build, GPU code and libraries" python3 -c '
import json, sys
facts = next(l for l in json.load(open(sys.argv[1]))["layers"] if l["id"] == "application")["facts"]
vllm = next(f for f in facts["frameworks"] if f["name"] == "vllm")
assert vllm["version"] == "0.6.4.post1" and vllm["cuda"] == "12" and "9.0" in vllm["sass"], vllm
assert any(c["framework"].startswith("vllm") and c["kernel_image"] == "sass" for c in facts["checks"])
assert any(l["framework"].startswith("vllm") and l["via"] == "already-loaded" for l in facts["libraries"])
assert all(p["relation"] == "same" for p in facts["torch_pins"]) and len(facts["torch_pins"]) == 2' "$work/frameworks.json"

# Hostile environment values (one variable may hold at most 128 KiB) never crash it (exit 0 or 1, never 2 or a signal).
NVIDIA_VISIBLE_DEVICES="$(head -c 100000 /dev/zero | tr '\0' 'x'),void,$(printf '\001\002')" \
  NVIDIA_DRIVER_CAPABILITIES=$'\033[31m,all' "$gpudoctor" check >/dev/null 2>&1
status=$?
check "hostile environment is diagnosed, not fatal" test "$status" -le 1

# lint must not call a file it cannot read as a Dockerfile or compose file clean.
check "lint: a file that is no Dockerfile exits 2" exit_is 2 "$gpudoctor" lint /etc/passwd
check "lint: and says why" grep -q 'not a Dockerfile: no FROM instruction' "$work/err"
printf 'services: [unclosed\n' >"$work/broken.compose.yaml"
check "lint: a compose file that is no YAML exits 2" exit_is 2 "$gpudoctor" lint "$work/broken.compose.yaml"
check "lint: a binary file exits 2" exit_is 2 "$gpudoctor" lint "$gpudoctor"
printf '\357\273\277FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs\n' >"$work/bom.Dockerfile"
check "lint: a byte-order mark hides nothing" exit_is 1 "$gpudoctor" lint "$work/bom.Dockerfile"
printf 'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN pip install torch --index-url https://download.pytorch.org/whl/cu99999999999999999999999\n' >"$work/digits.Dockerfile"
"$gpudoctor" lint "$work/digits.Dockerfile" >"$work/out" 2>"$work/err"
check "lint: absurd digits are no internal error" bash -c "[ $? -le 1 ] && ! grep -q 'internal error' '$work/err'"
# --target names a program or library; anything else is a usage error naming it.
check "--target: a missing file exits 2" exit_is 2 "$gpudoctor" check --no-probe --target "$work/no-such-program"
check "--target: a directory exits 2" exit_is 2 "$gpudoctor" check --no-probe --target "$work"
check "--target: a file that is not ELF exits 2" exit_is 2 "$gpudoctor" check --no-probe --target /etc/passwd
# --output onto something that is not a regular file: written into, never replaced by a file.
check "--output into a FIFO nobody reads is an error, not a hang" \
  exit_is 2 timeout 10 "$gpudoctor" check --replay "$scenarios/host-healthy-h100" --format line --output "$work/fifo"
check "--output onto /dev/null keeps it a character device" \
  bash -c "'$gpudoctor' check --replay '$scenarios/host-healthy-h100' --format line --output /dev/null && test -c /dev/null"
ln -s /proc/self/fd/1 "$work/stdout-link"
check "--output through a link to stdout writes to stdout, and keeps the link" \
  bash -c "'$gpudoctor' check --replay '$scenarios/host-healthy-h100' --format line --output '$work/stdout-link' | grep -q '^OK' && test -L '$work/stdout-link'"
check "a snapshot archive is private under any umask" \
  bash -c "umask 022 && '$gpudoctor' snapshot --replay '$scenarios/host-healthy-h100' --no-redact --output '$work/private.tar.gz' 2>/dev/null && test \"\$(stat -c %a '$work/private.tar.gz')\" = 600"
# --root on an unpacked image (no /proc, no /sys) says that --image is its mode; a machine's root does not.
mkdir -p "$work/image/usr/bin" "$work/image/etc" "$work/machine/usr/bin" "$work/machine/proc" "$work/machine/sys/bus"
echo "Linux version 6.1.0-18-amd64" >"$work/machine/proc/version"
"$gpudoctor" check --no-probe --root "$work/image" >"$work/out" 2>"$work/err"
check "--root on an image: says to use --image" grep -q "check --image $work/image" "$work/err"
"$gpudoctor" check --no-probe --root "$work/machine" >"$work/out" 2>"$work/err"
check "--root on a machine's root: no --image note" bash -c "! grep -q -- '--image' '$work/err'"

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
