#!/usr/bin/env python3
"""Writes the scenario snapshots (format gpudoctor-snapshot/1,
docs/snapshot-format.md), each with the verdict it must produce in
expected.json, into a directory of the build: they are generated, never
committed. The build runs it (the `scenarios` target writes
build/testdata/snapshots/); by hand:

    python3 tools/make_snapshots.py build/write_binary OUT_DIR

(write_binary is the build's helper around src/test_support/binary_writer,
the one writer of each binary format the scenarios hold.)

Each scenario's recipe and expectation sit together in tools/scenarios/, one
module a layer or topic, built from the facts a real system of that kind
shows (file formats from the NVIDIA driver, sysfs and the container toolkit;
see the public reports each rule's source cites for the failures they
reproduce). The real captures of testdata/captures/ are copied in beside
them, so that OUT_DIR holds every scenario the suites replay: a capture
directory as it is, and a set of capture archives (NAME.tar.gz beside one
expected.json that holds each capture's expectation) unpacked, each into a
scenario of its own.
"""
import json
import os
import shutil
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from scenarios import binaries  # noqa: E402
from scenarios import (application, container_and_nodes, cuda_runtime, driver_libs, driver_probe, engines,  # noqa: E402
                       hardware_and_module, host_engines, images, integrated, node_health, oci_hooks, odd_evidence,
                       platforms, workloads)

CAPTURES = os.path.join(HERE, "..", "testdata", "captures")
MODULES = (hardware_and_module, container_and_nodes, platforms, odd_evidence, driver_libs, cuda_runtime, application,
           images, driver_probe, integrated, engines, host_engines, oci_hooks, workloads, node_health)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: make_snapshots.py WRITE_BINARY OUT_DIR [STAMP_FILE]")
    binaries.use_writer(sys.argv[1])
    out = sys.argv[2]
    # Whole, every time: a scenario removed from the recipe leaves nothing behind.
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    names = []
    for module in MODULES:
        for scenario in module.scenarios():
            if scenario.name in names:
                sys.exit(f"make_snapshots: two scenarios are called {scenario.name}")
            scenario.write(out)
            names.append(scenario.name)
    captured = 0
    for capture in sorted(os.listdir(CAPTURES)):
        source = os.path.join(CAPTURES, capture)
        written = (unpack_capture_set(source, out) if not os.path.exists(os.path.join(source, "snapshot.json"))
                   else [copy_capture(source, os.path.join(out, capture))])
        for name in written:
            if name in names:
                sys.exit(f"make_snapshots: {name} is both a capture and a generated scenario")
            names.append(name)
        captured += len(written)
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as stamp:
            stamp.write(f"{len(names) - captured} generated, {captured} captured\n")


def copy_capture(source, target):
    shutil.copytree(source, target, symlinks=True)
    return os.path.basename(target)


def unpack_capture_set(source, out):
    """NAME.tar.gz as `gpudoctor snapshot` wrote it (one top directory NAME/),
    each unpacked to OUT/PREFIX-NAME with its expectation from expected.json."""
    with open(os.path.join(source, "expected.json")) as handle:
        expectations = json.load(handle)
    archives = sorted(name[:-len(".tar.gz")] for name in os.listdir(source) if name.endswith(".tar.gz"))
    if sorted(expectations["captures"]) != archives:
        sys.exit(f"make_snapshots: {source}: expected.json and the archives name different captures")
    written = []
    for name in archives:
        target = os.path.join(out, expectations["prefix"] + name)
        with tarfile.open(os.path.join(source, name + ".tar.gz")) as archive:
            members = [m for m in archive.getmembers() if m.name == name or m.name.startswith(name + "/")]
            if len(members) != len(archive.getmembers()) or any(m.isdev() or ".." in m.name.split("/") for m in members):
                sys.exit(f"make_snapshots: {name}.tar.gz holds more than its directory {name}/")
            archive.extractall(out, members=members)
        os.rename(os.path.join(out, name), target)
        expected = dict(expectations["captures"][name])
        expected["description"] = f"Real capture {name} ({os.path.basename(source)}/README.md): torch {expected['torch']}"
        for key in ("absent", "info", "findings"):
            expected.setdefault(key, [])
        with open(os.path.join(target, "expected.json"), "w") as handle:
            json.dump(expected, handle, indent=2)
            handle.write("\n")
        written.append(os.path.basename(target))
    return written


if __name__ == "__main__":
    main()
