#!/usr/bin/env bash
# systemd's units judged against systemd itself: for each tree of unit files,
# wants links and masks, `systemctl --root is-enabled` (enabled, masked or
# neither) and the link `systemctl --root enable` writes (the unit file it
# loads) against what gpudoctor, given the same tree under --root, says of
# nvidia-fabricmanager.service: its unit, enabled, masked. Nothing runs or
# is installed: systemctl only reads and writes inside the case's tree.
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

echo "systemd: $passed passed, $failed failed"
[ "$failed" = 0 ]
