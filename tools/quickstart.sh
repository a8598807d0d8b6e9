#!/usr/bin/env bash
# The README's two commands. On a fresh Debian 12 machine, as root:
#   tools/quickstart.sh check   install what is missing, build, run `gpudoctor check`
#   tools/quickstart.sh test    install what is missing, build, run every test suite,
#                               then again under AddressSanitizer and UBSan, and
#                               the replay and cli suites of a build without libpci,
#                               the static build's replays against the plain one, gpudoctor
#                               against real podman and containerd, and the libFuzzer targets' build
set -euo pipefail
cd "$(dirname "$0")/.."

# What building and running need; `check` installs only these.
build_packages=(g++ meson ninja-build pkg-config python3 libboost1.81-dev libboost-json1.81-dev libpci-dev zlib1g-dev liblzma-dev libzstd-dev libyaml-cpp-dev pciutils)
# What the test command needs besides:
# cmark-gfm: GitHub's markdown renderer, for the test that the markdown report renders safely.
# clang: the libFuzzer targets are built (not run at length) by the test command.
# podman, runc: gpudoctor inside containers a real engine made (tools/podman_test.sh).
# kmod: modinfo(8), which the binary writers' modules are checked against.
# python3-jsonschema: every JSON output against its schema (docs/schemas/).
# prometheus: promtool, which checks and unit-tests the fleet's alerting rules.
# xz-utils, zstd: compressed modules (.ko.xz, .ko.zst) made by the real tools, for scenarios and tests.
# ccache: meson compiles through it when it is installed, so a second run of the test command on the
# same machine recompiles only what changed (its five builds are each cached; see below).
test_packages=(doctest-dev cmark-gfm clang python3-yaml python3-prometheus-client podman runc kmod xz-utils zstd prometheus python3-jsonschema ccache)

install_missing() {  # install_missing PACKAGE...
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "quickstart: missing packages: ${missing[*]} (run as root, or install them)" >&2
    exit 2
  fi
  echo "quickstart: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

configure() {  # configure BUILD_DIR [meson options...]; TARGET=name builds that target alone
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@" >/dev/null
  fi
  # Quiet when it builds; a failed build shows what the compiler said.
  local log
  log=$(mktemp)
  if ! ninja -C "$dir" ${TARGET:-} >"$log" 2>&1; then
    grep -v '^\[[0-9]*/[0-9]*\] ' "$log" >&2 || true
    rm -f "$log"
    echo "quickstart: the build in $dir failed" >&2
    exit 1
  fi
  rm -f "$log"
}

# meson prints its own tally; CI reads the plain "N passed, N failed" line.
run_suites() {  # run_suites BUILD_DIR LABEL [meson test options...]
  local dir=$1 label=$2 status=0
  shift 2
  meson test -C "$dir" --print-errorlogs "$@" || status=$?
  python3 - "$dir/meson-logs/testlog.json" "$label" <<'PY'
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1]) if line.strip()]
passed = sum(r == "OK" for r in results)
print(f"{sys.argv[2]}: {passed} passed, {len(results) - passed} failed")
PY
  return $status
}

case "${1:-check}" in
  check)
    install_missing "${build_packages[@]}"
    # A new build/ is made without debug information: with it, every file of the core emits it and
    # the precompiled header grows to 120 MB, and the first report takes 190 s instead of 120 s here
    # (docs/benchmarks.md). An existing build/ keeps its settings, so nothing is rebuilt for this.
    first_build=()
    [ -f build/build.ninja ] || first_build=(-Ddebug=false)
    TARGET=gpudoctor configure build "${first_build[@]}"
    shift || true
    exec build/gpudoctor check "$@"
    ;;
  test)
    install_missing "${build_packages[@]}" "${test_packages[@]}"
    # The core is compiled with a precompiled header (meson's -include of src/pch/core_pch.h), which
    # ccache caches only when told that the header's defines and time macros cannot differ.
    export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    configure build -Dtests=enabled -Dwerror=true  # warnings are errors in CI
    status=0
    run_suites build "tests" || status=1
    configure build-sanitize -Dtests=enabled -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug -Dwerror=true
    # A debug build under ASan runs the replay suite 2-3 times slower than the
    # plain one (180 s there): its deadlines are doubled, not the plain run's.
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
      run_suites build-sanitize "tests under ASan+UBSan" --timeout-multiplier 2 || status=1
    # The diagnosis must not depend on how the binary was built: without
    # libpci (as the static build will be) every scenario must replay the same.
    configure build-nopci -Dtests=enabled -Dpci_names=disabled -Dwerror=true
    run_suites build-nopci "tests without libpci" --suite replay --suite cli || status=1
    # That build is the glibc-only artefact for live probes and --smoke: it must need nothing but glibc;
    # so must the plain one, which opens libpci only when it names a device (probes/pci_names.cpp).
    for binary in build-nopci/gpudoctor build/gpudoctor; do
      if ldd "$binary" | grep -v -E 'linux-vdso|libc\.so|ld-linux|libm\.so'; then
        echo "FAIL: $binary needs more than glibc (listed above)"; status=1
      fi
    done
    # The single static file for images (-Dstatic=true): it must be static,
    # and replay every scenario exactly as the plain build does.
    configure build-static -Dstatic=true -Dtests=disabled -Dwerror=true
    static_result=OK
    tools/compare_builds.sh build/gpudoctor build-static/gpudoctor build/testdata/snapshots --static || { static_result=FAIL; status=1; }
    # gpudoctor inside containers a real engine (podman + runc) made, where it runs here (77: skipped).
    podman_result=OK
    tools/podman_test.sh build-static/gpudoctor || { code=$?; [ "$code" = 77 ] && podman_result=SKIP || { podman_result=FAIL; status=1; }; }
    echo "podman tests: $podman_result"
    # containerd's imports judged against the real program's `config dump` (containerd on PATH, else
    # Debian's package unpacked into a temporary directory, never installed; 77: skipped).
    containerd_result=OK
    tools/containerd_test.sh build/gpudoctor || { code=$?; [ "$code" = 77 ] && containerd_result=SKIP || { containerd_result=FAIL; status=1; }; }
    echo "containerd tests: $containerd_result"
    # The running containerd's findings against what a real containerd loaded and its next start did
    # (the same program, in a private mount namespace; 77: skipped).
    containerd_live_result=OK
    tools/containerd_live_test.sh build/gpudoctor || { code=$?; [ "$code" = 77 ] && containerd_live_result=SKIP || { containerd_live_result=FAIL; status=1; }; }
    echo "containerd live tests: $containerd_live_result"
    # The live path to a running crio (its socket found, the crio-config child, the rules) against a stand-in
    # that answers GET /config as crio does: no CRI-O package exists for Debian 12 (77: skipped).
    crio_live_result=OK
    tools/crio_live_test.sh build/gpudoctor || { code=$?; [ "$code" = 77 ] && crio_live_result=SKIP || { crio_live_result=FAIL; status=1; }; }
    echo "crio live tests: $crio_live_result"
    # The running dockerd's findings against what a real dockerd does (Debian's packages unpacked where
    # none is installed, in a private mount namespace; 77: skipped).
    dockerd_result=OK
    tools/dockerd_test.sh build/gpudoctor || { code=$?; [ "$code" = 77 ] && dockerd_result=SKIP || { dockerd_result=FAIL; status=1; }; }
    echo "dockerd tests: $dockerd_result"
    # Which unit file, mask and wants link systemd goes by, against `systemctl --root` (77: skipped).
    systemd_result=OK
    tools/systemd_test.sh build/gpudoctor || { code=$?; [ "$code" = 77 ] && systemd_result=SKIP || { systemd_result=FAIL; status=1; }; }
    echo "systemd tests: $systemd_result"
    # The fuzz targets must keep building; each runs once over seeds from testdata.
    fuzz_result=OK
    CXX=clang++ configure build-fuzz -Dfuzz=true -Dtests=disabled -Dpci_names=disabled \
      -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true || fuzz_result=FAIL
    if [ "$fuzz_result" = OK ]; then
      export ASAN_OPTIONS=detect_leaks=0
      seeds=$(mktemp -d)
      build/gpudoctor snapshot --replay build/testdata/snapshots/host-identifying-values --output "$seeds/seed.tar.gz" 2>/dev/null &&
        build-fuzz/fuzz_snapshot_archive "$seeds/seed.tar.gz" >/dev/null 2>&1 &&
        build-fuzz/fuzz_snapshot build/testdata/snapshots/host-healthy-h100/snapshot.json >/dev/null 2>&1 &&
        build-fuzz/fuzz_elf build/testdata/snapshots/host-healthy-h100/root/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 >/dev/null 2>&1 &&
        build-fuzz/fuzz_ld_cache build/testdata/snapshots/container-cuda-compat-active/root/etc/ld.so.cache >/dev/null 2>&1 &&
        build-fuzz/fuzz_dockerfile testdata/dockerfiles/mistakes.Dockerfile >/dev/null 2>&1 &&
        build-fuzz/fuzz_compose testdata/compose/mistakes.compose.yaml >/dev/null 2>&1 &&
        build-fuzz/fuzz_python_metadata build/testdata/snapshots/host-tensorflow-and-cuda/root/opt/venv/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py >/dev/null 2>&1 &&
        build-fuzz/fuzz_cdi_spec build/testdata/snapshots/host-cdi-spec-current/root/etc/cdi/nvidia.yaml >/dev/null 2>&1 &&
        build-fuzz/fuzz_toml_config build/testdata/snapshots/host-containerd2-drop-in-healthy/root/etc/containerd/config.toml >/dev/null 2>&1 &&
        { printf '\002'; cat build/testdata/snapshots/host-zst-module-wrong-kernel/root/lib/modules/6.1.0-18-amd64/updates/dkms/nvidia.ko.zst; } > "$seeds/module" &&
        build-fuzz/fuzz_kernel_module "$seeds/module" >/dev/null 2>&1 &&
        printf 'RuntimeError: CUDA error: no kernel image is available for execution on the device\n' > "$seeds/explain" &&
        build-fuzz/fuzz_explain "$seeds/explain" >/dev/null 2>&1 &&
        build-fuzz/fuzz_kernel_log build/testdata/snapshots/host-xid-48-from-kmsg/root/dev/kmsg >/dev/null 2>&1 &&
        { build/gpudoctor check --replay build/testdata/snapshots/host-healthy-h100 --format json; printf '\0'
          build/gpudoctor check --replay build/testdata/snapshots/host-nvidia-smi-banner-healthy --format json; } > "$seeds/diff" &&
        build-fuzz/fuzz_report_diff "$seeds/diff" >/dev/null 2>&1 &&
        build-fuzz/fuzz_rules rules/layers/driver-libs.json >/dev/null 2>&1 || fuzz_result=FAIL
      rm -rf "$seeds"
      unset ASAN_OPTIONS
    fi
    [ "$fuzz_result" = OK ] || status=1
    echo "fuzz targets: $fuzz_result"
    [ "$podman_result" = SKIP ] && podman_result=OK  # said above; where no engine runs there is nothing to count
    [ "$containerd_result" = SKIP ] && containerd_result=OK
    [ "$systemd_result" = SKIP ] && systemd_result=OK
    python3 - "$static_result" "$fuzz_result" "$podman_result" "$containerd_result" "$systemd_result" build/meson-logs/testlog.json build-sanitize/meson-logs/testlog.json build-nopci/meson-logs/testlog.json <<'PY'
import json, sys
results = sys.argv[1:6] + [json.loads(line)["result"] for path in sys.argv[6:] for line in open(path) if line.strip()]
passed = sum(r == "OK" for r in results)
print(f"{passed} passed, {len(results) - passed} failed")
PY
    exit $status
    ;;
  *)
    echo "usage: tools/quickstart.sh check|test" >&2
    exit 2
    ;;
esac
