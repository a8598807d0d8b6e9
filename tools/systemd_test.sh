#!/usr/bin/env bash
# systemd's units judged against systemd itself: for each tree of unit files,
# wants links and masks, `systemctl --root is-enabled` (enabled, masked or
# neither) and the link `systemctl --root enable` writes (the unit file it
# loads) against what gpudoctor, given the same tree under --root, says of
# nvidia-fabricmanager.service: its unit, enabled, masked; and the order of a
# unit's drop-ins against `systemd-analyze --root cat-config` (below). Nothing
# runs or is installed: systemctl only reads and writes inside the case's tree.
# is-enabled says "disabled" for a unit a vendor's link below /usr/lib wants;
# systemd still starts it at boot (a .wants directory in any unit path adds
# the dependency, systemd.unit(5)), and gpudoctor counts it: the unit test
# has that case, this script none.
# An empty unit file masks too (systemd.unit(5)); gpudoctor does not count
# it (a snapshot keeps a file only looked at as an empty one), so no case has one.
# Exits 77 (skipped) where systemctl is not at hand.
# usage: systemd_test.sh path/to/gpudoctor
set -u
gpudoctor=$(realpath "$1")
command -v systemctl >/dev/null || { echo "systemd: skipped: no systemctl"; exit 77; }
echo "systemd: $(systemctl --version | head -1)"
work=$(mktemp -d /tmp/gpudoctor-systemd-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

unit=nvidia-fabricmanager.service
passed=0
failed=0
# unit_case NAME ENTRY...: ENTRY is DIR/FILE=unit (a unit file) or DIR/FILE@TARGET (a link); DIR is below the root.
unit_case() {
  local name=$1 root="$work/$1/root" entry path
  shift
  mkdir -p "$root/usr/bin" "$root/dev"
  : >"$root/usr/bin/nv-fabricmanager"
  : >"$root/dev/nvidia-nvswitchctl"  # an NVSwitch system: gpudoctor looks for Fabric Manager
  for entry in "$@"; do
    case $entry in
      *@*) path="$root/${entry%%@*}"; mkdir -p "$(dirname "$path")"; ln -s "${entry#*@}" "$path" ;;
      *=unit) path="$root/${entry%%=*}"; mkdir -p "$(dirname "$path")"
              printf '[Unit]\nDescription=FabricManager service\n[Service]\nExecStart=/usr/bin/nv-fabricmanager\n[Install]\nWantedBy=multi-user.target\n' >"$path" ;;
    esac
  done
  local state loaded=""
  state=$(systemctl --root="$root" is-enabled "$unit" 2>/dev/null)
  # The file systemd loads, from the link `enable` writes, in a copy without wants links (masked: enable refuses).
  if [ "${state#masked}" = "$state" ]; then
    cp -a "$root" "$work/$name/copy"
    find "$work/$name/copy" -path '*multi-user.target.wants*' -delete
    systemctl --root="$work/$name/copy" enable "$unit" >/dev/null 2>&1
    loaded=$(readlink "$work/$name/copy/etc/systemd/system/multi-user.target.wants/$unit")
  fi
  "$gpudoctor" check --root "$root" --no-probe --format json >"$work/$name/report.json" 2>/dev/null
  if python3 - "$work/$name/report.json" "$state" "$loaded" <<'PY'; then
import json, sys
report_path, state, loaded = sys.argv[1:]
report = json.load(open(report_path))
layer = next(layer for layer in report["layers"] if layer["id"] == "driver-libs")
ours = layer["facts"]["fabric_manager"]
problems = []
masked = state.startswith("masked")
enabled = state.startswith("enabled")
if ours["masked"] != masked:
    problems.append(f"masked: systemctl {state!r}, gpudoctor {ours['masked']}")
if ours["enabled"] != enabled:
    problems.append(f"enabled: systemctl {state!r}, gpudoctor {ours['enabled']}")
if loaded and ours["unit"] != loaded:
    problems.append(f"unit file: systemctl {loaded!r}, gpudoctor {ours['unit']!r}")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
    echo "ok   $name ($state${loaded:+, $loaded})"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
}

wants=etc/systemd/system/multi-user.target.wants/$unit
unit_case package-enabled lib/systemd/system/$unit=unit "$wants@/lib/systemd/system/$unit"
unit_case package-disabled usr/lib/systemd/system/$unit=unit
unit_case lib-before-usr-lib lib/systemd/system/$unit=unit usr/lib/systemd/system/$unit=unit "$wants@/lib/systemd/system/$unit"
unit_case usr-local-lib usr/local/lib/systemd/system/$unit=unit "$wants@/usr/local/lib/systemd/system/$unit"
unit_case etc-copy-wins etc/systemd/system/$unit=unit usr/lib/systemd/system/$unit=unit "$wants@/etc/systemd/system/$unit"
unit_case run-before-usr run/systemd/system/$unit=unit usr/lib/systemd/system/$unit=unit
unit_case enabled-for-this-boot usr/lib/systemd/system/$unit=unit "run/systemd/system/multi-user.target.wants/$unit@/usr/lib/systemd/system/$unit"
unit_case masked-in-etc usr/lib/systemd/system/$unit=unit "etc/systemd/system/$unit@/dev/null" "$wants@/usr/lib/systemd/system/$unit"
unit_case masked-for-this-boot usr/lib/systemd/system/$unit=unit "run/systemd/system/$unit@/dev/null" "$wants@/usr/lib/systemd/system/$unit"
unit_case etc-copy-over-run-mask etc/systemd/system/$unit=unit "run/systemd/system/$unit@/dev/null" "$wants@/etc/systemd/system/$unit"
unit_case mask-below-the-unit etc/systemd/system/$unit=unit "usr/lib/systemd/system/$unit@/dev/null" "$wants@/etc/systemd/system/$unit"

# Drop-ins: which of containerd.service's drop-ins apply, and in what order, as
# `systemd-analyze --root cat-config` lists them (each drop-in here replaces
# ExecStart with `--config /srv/NAME.toml`, so the last one listed names the
# file containerd reads) against the configuration gpudoctor says containerd
# reads. cat-config puts /usr/lib before /lib, where units load /lib first, so
# no case has a file below /lib.
# dropin_case NAME DIR/NAME.conf...: each drop-in below the root.
dropin_case() {
  local name=$1 root="$work/dropins/$1" entry base
  shift
  mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/systemd/system" "$root/srv"
  : >"$root/usr/local/bin/containerd"
  printf '[Service]\nExecStart=/usr/local/bin/containerd\n' >"$root/usr/local/lib/systemd/system/containerd.service"
  for entry in "$@"; do  # etc/.../10-a.conf names /srv/etc-10-a.toml; usr/local/lib/.../10-a.conf /srv/usr-local-lib-10-a.toml
    base="$(echo "${entry%%/systemd/*}" | tr / -)-$(basename "$entry" .conf)"
    mkdir -p "$(dirname "$root/$entry")"
    printf '[Service]\nExecStart=\nExecStart=/usr/local/bin/containerd --config /srv/%s.toml\n' "$base" >"$root/$entry"
    printf 'version = 2\n' >"$root/srv/$base.toml"
  done
  systemd-analyze --root="$root" cat-config systemd/system/containerd.service >"$work/dropins/$name.cat" 2>/dev/null
  "$gpudoctor" check --root "$root" --no-probe --format json >"$work/dropins/$name.json" 2>/dev/null
  if python3 - "$work/dropins/$name.cat" "$work/dropins/$name.json" <<'PY'; then
import json, re, sys
cat_path, report_path = sys.argv[1:]
configs = re.findall(r"--config (\S+)", open(cat_path).read())
expected = configs[-1] if configs else "/etc/containerd/config.toml"
report = json.load(open(report_path))
container = next(layer for layer in report["layers"] if layer["id"] == "container")
engines = container["facts"].get("engines", {}).get("containerd", [])
ours = engines[0]["config"] if engines else None
if ours != expected:
    print(f"  config: systemd's drop-ins give {expected!r}, gpudoctor {ours!r}")
    sys.exit(1)
PY
    echo "ok   drop-ins $name"
    passed=$((passed + 1))
  else
    echo "FAIL drop-ins $name"
    failed=$((failed + 1))
  fi
}

dropin=systemd/system/containerd.service.d
dropin_case one-in-etc etc/$dropin/10-site.conf
dropin_case by-name-across-directories etc/$dropin/10-a.conf run/$dropin/20-b.conf usr/local/lib/$dropin/30-c.conf usr/lib/$dropin/05-d.conf
dropin_case etc-hides-run etc/$dropin/20-same.conf run/$dropin/20-same.conf usr/lib/$dropin/10-first.conf
dropin_case run-hides-usr-lib run/$dropin/50-same.conf usr/lib/$dropin/50-same.conf
dropin_case usr-local-lib-hides-usr-lib usr/local/lib/$dropin/50-same.conf usr/lib/$dropin/50-same.conf etc/$dropin/40-before.conf

echo "systemd: $passed passed, $failed failed"
[ "$failed" = 0 ]
