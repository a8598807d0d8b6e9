#!/usr/bin/env bash
# gpudoctor inside containers that a real engine made: Debian's podman with
# runc, as root, offline. An image FROM scratch holds the static binary; a
# CDI spec of ours injects fake driver files and device nodes made here (as
# nvidia-ctk's spec would inject the real ones), so the container layer is
# judged on what the engine really did. Exits 77 (skipped) where podman
# cannot run containers.
# usage: podman_test.sh path/to/static/gpudoctor
set -u
gpudoctor=$1
skip() { echo "podman: skipped: $*"; exit 77; }
command -v podman >/dev/null || skip "podman is not installed"
command -v runc >/dev/null || skip "runc is not installed"
[ "$(id -u)" = 0 ] || skip "needs root (rootful podman)"
ldd "$gpudoctor" >/dev/null 2>&1 && skip "$gpudoctor is not a static binary"
command -v cc >/dev/null || skip "no C compiler for the fake driver library"

work=$(mktemp -d)
tag="gpudoctor-podman-test:$$"
spec_dir=/var/run/cdi  # podman 4.3 reads specs from /etc/cdi and /var/run/cdi only
spec="$spec_dir/gpudoctor-podman-test-$$.yaml"
kind="gpudoctor-test-$$.example/gpu"  # of this run alone: two specs of one kind make both unresolvable
made_spec_dir=no
[ -d "$spec_dir" ] || { mkdir -p "$spec_dir" && made_spec_dir=yes; }
cleanup() {
  rm -f "$spec"
  [ "$made_spec_dir" = yes ] && rmdir "$spec_dir" 2>/dev/null
  podman rmi -f "$tag" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap "rm -f $spec; echo kept $work" EXIT
passed=0 failed=0
check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}
run() {  # run [PODMAN RUN OPTIONS...] -- GPUDOCTOR ARGS...
  local options=()
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  timeout 120 podman --runtime runc run --rm --network none --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
    "${options[@]}" "$tag" "$@"
}

# The image: the static binary alone, as containers/Dockerfile.static makes it.
cp "$gpudoctor" "$work/gpudoctor"
printf 'FROM scratch\nCOPY gpudoctor /gpudoctor\nENTRYPOINT ["/gpudoctor"]\n' >"$work/Containerfile"
timeout 300 podman build -q -t "$tag" -f "$work/Containerfile" "$work" >/dev/null || skip "podman cannot build FROM scratch here"

# Fake driver files and nodes, with NVIDIA's numbers (nothing drives them here).
mkdir -p "$work/driver" "$work/dev"
printf 'int cuInit(unsigned flags) { return 100; }\n' >"$work/cuda.c"
cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$work/driver/libcuda.so.550.54.15" "$work/cuda.c" || exit 1
mknod "$work/dev/nvidiactl" c 195 255 && mknod "$work/dev/nvidia0" c 195 0 && mknod "$work/dev/nvidia-uvm" c 511 0 || exit 1
lib=/usr/lib64  # a scratch image has no multiarch layout: the loader's built-in default directory
cat >"$spec" <<SPEC
cdiVersion: 0.5.0
kind: $kind
containerEdits:
  env:
  - NVIDIA_VISIBLE_DEVICES=void
  - NVIDIA_CTK_LIBCUDA_DIR=$lib
  deviceNodes:
  - path: /dev/nvidiactl
    hostPath: $work/dev/nvidiactl
  - path: /dev/nvidia-uvm
    hostPath: $work/dev/nvidia-uvm
  mounts:
  - hostPath: $work/driver/libcuda.so.550.54.15
    containerPath: $lib/libcuda.so.550.54.15
    options: [ro, nosuid, nodev, bind]
  - hostPath: $work/driver/libcuda.so.550.54.15
    containerPath: $lib/libcuda.so.1
    options: [ro, nosuid, nodev, bind]
devices:
- name: "0"
  containerEdits:
    deviceNodes:
    - path: /dev/nvidia0
      hostPath: $work/dev/nvidia0
- name: all
  containerEdits:
    deviceNodes:
    - path: /dev/nvidia0
      hostPath: $work/dev/nvidia0
SPEC

layer() {  # layer REPORT LAYER-ID EXPRESSION: a Python expression over the layer `l` and the report `r` must hold
  python3 -c 'import json,sys
r=json.load(open(sys.argv[1])); l=[x for x in r["layers"] if x["id"]==sys.argv[2]][0]
ok=eval(sys.argv[3])
if not ok: print(json.dumps(l, indent=1)[:3000])
sys.exit(0 if ok else 1)' "$@"
}

# A container the engine gave a GPU through CDI.
run --device "$kind=all" -- check --no-probe --format json >"$work/cdi.json" 2>"$work/cdi.err"
check "cdi: gpudoctor ran in the container and wrote a report" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/cdi.json"
check "cdi: the engine is podman" layer "$work/cdi.json" container 'l["facts"]["runtime"] == "podman"'
check "cdi: the injection is CDI" layer "$work/cdi.json" container 'l["facts"]["injection"] == "cdi"'
check "cdi: void is the spec's own, not a failure" \
  layer "$work/cdi.json" container 'l["facts"]["visible_devices"]["mode"] == "void" and l["status"] == "ok" and not l["findings"]'
check "cdi: the nodes the spec injected are seen" \
  layer "$work/cdi.json" device-nodes 'sorted(n["path"] for n in l["facts"]["nodes"]) == ["/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidiactl"]'
check "cdi: the library the spec mounted is found" \
  layer "$work/cdi.json" driver-libs 'l["facts"]["libraries"][0]["found"] and l["facts"]["libraries"][0]["real_path"].endswith("libcuda.so.1")'

# The same image without a GPU: the container layer is the cause.
run -- check --no-probe --format json >"$work/none.json" 2>"$work/none.err"
status=$?
check "no GPU: exit 1" test "$status" = 1
# (This machine's own PCI bus decides the hardware layer: no GPU on a CI VM, so that may fail first.)
check "no GPU: the container layer fails, with container-gpu-not-requested" \
  layer "$work/none.json" container 'l["status"] == "fail" and any(f["rule"] == "container-gpu-not-requested" for f in l["findings"])'

# The pre-flight line form (--format line), as an entrypoint would use it.
run -- check --no-probe --format line >"$work/line.txt" 2>&1
check "line: one closing line, a failure" bash -c '[ "$(wc -l <"$1")" = 1 ] && grep -q "^FAIL at " "$1"' _ "$work/line.txt"

# OCI hooks: for each directory of hook files, podman refuses every container
# ("setting up OCI Hooks") exactly where gpudoctor, given the same files
# under --root, says podman-oci-hooks-refused.
hook_program="$work/hook.sh"
printf '#!/bin/sh\nexit 0\n' >"$hook_program" && chmod +x "$hook_program"
hook_case() {  # hook_case NAME FILE=CONTENT...: one directory of hooks, judged by podman and by gpudoctor
  local name=$1 dir="$work/hooks/$1" root="$work/hooks-root/$1"
  shift
  mkdir -p "$dir" "$root/usr/bin" "$root/usr/share/containers/oci" "$root$(dirname "$hook_program")"
  local entry
  for entry in "$@"; do
    case "$entry" in
      link:*) ln -s "${entry#link:*=}" "$dir/$(echo "${entry#link:}" | cut -d= -f1)" ;;
      dir:*) mkdir "$dir/${entry#dir:}" ;;
      *) printf '%s\n' "${entry#*=}" >"$dir/${entry%%=*}" ;;
    esac
  done
  cp -a "$dir" "$root/usr/share/containers/oci/hooks.d"
  cp "$hook_program" "$root$hook_program"
  : >"$root/usr/bin/podman"
  timeout 120 podman --runtime runc --hooks-dir "$dir" run --rm --network none --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
    "$tag" --version >"$work/hook-$name.podman" 2>&1
  local refused=False
  grep -q "setting up OCI Hooks" "$work/hook-$name.podman" && refused=True
  "$gpudoctor" check --root "$root" --no-probe --format json >"$work/hook-$name.json" 2>/dev/null
  check "hooks: $name: gpudoctor says podman refuses ($refused), as podman did" \
    layer "$work/hook-$name.json" container "any(f['rule'] == 'podman-oci-hooks-refused' for f in l['findings']) == $refused"
}
good="{\"version\": \"1.0.0\", \"hook\": {\"path\": \"$hook_program\"}, \"when\": {\"always\": true}, \"stages\": [\"prestart\"]}"
stages_string="{\"version\": \"1.0.0\", \"hook\": {\"path\": \"$hook_program\"}, \"stages\": \"prestart\"}"
gone='{"version": "1.0.0", "hook": {"path": "/opt/gone/hook"}, "when": {"always": true}, "stages": ["prestart"]}'
hook_case healthy "50-good.json=$good" "README=not a hook"
hook_case stages-a-string "50-bad.json=$stages_string"
hook_case missing-program-first "10-gone.json=$gone" "50-bad.json=$stages_string" "60-good.json=$good"
hook_case refusal-first "10-bad.json=$stages_string" "60-gone.json=$gone"
hook_case keys-in-any-case "10-case.json={\"Version\": \"1.0.0\", \"HOOK\": {\"Path\": \"$hook_program\"}, \"Stages\": [\"prestart\"]}"
hook_case stages-missing "10-none.json={\"version\": \"1.0.0\", \"hook\": {\"path\": \"$hook_program\"}}"
hook_case version-0.1.0 "10-old.json={\"hook\": \"$hook_program\", \"stage\": [\"prestart\"], \"cmds\": [\".*\"]}"
hook_case timeout-not-int "10-t.json={\"version\": \"1.0.0\", \"hook\": {\"path\": \"$hook_program\", \"timeout\": 1.5}, \"stages\": []}"
hook_case version-unknown '10-v.json={"version": "2.0.0"}'
hook_case empty-file "10-e.json="
hook_case null 10-n.json=null
hook_case dangling-link-skipped "link:05-dangling.json=/nonexistent" "50-good.json=$good"
hook_case program-below-a-file "10-nd.json={\"version\": \"1.0.0\", \"hook\": {\"path\": \"$hook_program/x\"}, \"stages\": [\"prestart\"]}"
hook_case directory-named-json "dir:10-d.json"

echo "podman: $passed passed, $failed failed"
[ "$failed" = 0 ]
