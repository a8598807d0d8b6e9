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
them, so that OUT_DIR holds every scenario the suites replay.
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from scenarios import binaries  # noqa: E402
from scenarios import (application, container_and_nodes, cuda_runtime, driver_libs, driver_probe, engines,  # noqa: E402
                       hardware_and_module, images, integrated, odd_evidence, platforms)

CAPTURES = os.path.join(HERE, "..", "testdata", "captures")
MODULES = (hardware_and_module, container_and_nodes, platforms, odd_evidence, driver_libs, cuda_runtime, application,
           images, driver_probe, integrated, engines)


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
    for capture in sorted(os.listdir(CAPTURES)):
        if capture in names:
            sys.exit(f"make_snapshots: {capture} is both a capture and a generated scenario")
        shutil.copytree(os.path.join(CAPTURES, capture), os.path.join(out, capture), symlinks=True)
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as stamp:
            stamp.write(f"{len(names)} generated, {len(os.listdir(CAPTURES))} captured\n")


if __name__ == "__main__":
    main()
