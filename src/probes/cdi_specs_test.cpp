#include "probes/cdi_specs.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("CDI specs: every spec read counts against the cap, whatever its vendor, and another vendor's is not parsed") {
  gd::ProbeFixture f;
  for (int i = 0; i < 3000; ++i)
    f.host.file("/etc/cdi/vendor-" + std::to_string(10000 + i) + ".yaml", "cdiVersion: 0.6.0\nkind: example.com/fpga\ndevices: []\n");
  f.host.file("/var/run/cdi/nvidia.yaml", "cdiVersion: 0.6.0\nkind: nvidia.com/gpu\ndevices: [{name: all}]\n");
  auto context = f.context();
  gd::Probed<gd::ContainerFacts> notes;
  const auto specs = gd::read_cdi_specs(context, notes, false);
  int reads = 0;
  for (const auto& [path, count] : f.host.reads) reads += path.starts_with("/etc/cdi/") ? count : 0;
  CHECK(reads == 64);
  CHECK(specs.empty());  // NVIDIA's own came after the cap
  REQUIRE(notes.unreadable.size() == 1);
  CHECK(notes.unreadable[0].problem == "more than 64 CDI specs: this and the rest were not read");

  gd::ProbeFixture few;
  few.host.file("/etc/cdi/fpga.yaml", "cdiVersion: 0.6.0\nkind: example.com/fpga\ndevices: []\n");
  few.host.file("/var/run/cdi/nvidia.yaml", "cdiVersion: 0.6.0\nkind: nvidia.com/gpu\ndevices: [{name: all}]\n");
  auto few_context = few.context();
  gd::Probed<gd::ContainerFacts> quiet;
  const auto found = gd::read_cdi_specs(few_context, quiet, false);
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "nvidia.com/gpu");
  CHECK(quiet.unreadable.empty());
}
