#include "probes/cdi_specs.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("CDI specs: every spec read counts against the caps, whatever its vendor, and another vendor's is not parsed") {
  // A busy node with a DRA driver: a transient spec per claim, sorted before the toolkit's own.
  gd::ProbeFixture dra;
  for (int i = 0; i < 300; ++i)
    dra.host.file("/var/run/cdi/k8s.gpu.nvidia.com-claim_" + std::to_string(10000 + i) + ".yaml",
                  "cdiVersion: 0.5.0\nkind: k8s.gpu.nvidia.com/claim\ndevices: [{name: gpu-0}]\n");
  dra.host.file("/var/run/cdi/nvidia.yaml", "cdiVersion: 0.6.0\nkind: nvidia.com/gpu\ndevices: [{name: all}]\n");
  auto dra_context = dra.context();
  gd::Probed<gd::ContainerFacts> dra_notes;
  const auto claimed = gd::read_cdi_specs(dra_context, dra_notes, false);
  REQUIRE(claimed.size() == 1);
  CHECK(claimed[0].kind == "nvidia.com/gpu");
  CHECK(dra_notes.unreadable.empty());

  gd::ProbeFixture f;
  for (int i = 0; i < 5000; ++i)
    f.host.file("/etc/cdi/vendor-" + std::to_string(10000 + i) + ".yaml", "cdiVersion: 0.6.0\nkind: example.com/fpga\ndevices: []\n");
  f.host.file("/var/run/cdi/nvidia.yaml", "cdiVersion: 0.6.0\nkind: nvidia.com/gpu\ndevices: [{name: all}]\n");
  auto context = f.context();
  gd::Probed<gd::ContainerFacts> notes;
  const auto specs = gd::read_cdi_specs(context, notes, false);
  int reads = 0;
  for (const auto& [path, count] : f.host.reads) reads += path.starts_with("/etc/cdi/") ? count : 0;
  CHECK(reads == 4096);
  CHECK(specs.empty());  // NVIDIA's own came after the cap
  REQUIRE(notes.unreadable.size() == 1);
  CHECK(notes.unreadable[0].path == "/etc/cdi/vendor-14096.yaml");
  CHECK(notes.unreadable[0].problem == "more than 4096 CDI specs: this and the rest were not read");

  // Few files, but large: the bytes stop it.
  gd::ProbeFixture large;
  const std::string padding(4 << 20, '#');
  for (int i = 0; i < 20; ++i) large.host.file("/etc/cdi/vendor-" + std::to_string(10 + i) + ".yaml", padding);
  auto large_context = large.context();
  gd::Probed<gd::ContainerFacts> large_notes;
  gd::read_cdi_specs(large_context, large_notes, false);
  REQUIRE(large_notes.unreadable.size() == 1);
  CHECK(large_notes.unreadable[0].path == "/etc/cdi/vendor-26.yaml");  // after 16 of 4 MiB
  CHECK(large_notes.unreadable[0].problem == "more than 64 MiB of CDI specs: this and the rest were not read");

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

TEST_CASE("CDI specs that cannot be read alike are one note: a user on a DRA node meets hundreds of 0600 claim specs") {
  gd::ProbeFixture f;
  for (int i = 0; i < 3; ++i) {
    const std::string path = "/var/run/cdi/k8s.gpu.nvidia.com-claim_" + std::to_string(i) + ".yaml";
    f.host.link(path, path);
  }
  f.host.link("/var/run/cdi/other.yaml", "/var/run/cdi/dir/x.yaml");
  f.host.file("/var/run/cdi/dir", "");
  f.host.file("/var/run/cdi/nvidia.yaml", "cdiVersion: 0.6.0\nkind: nvidia.com/gpu\ndevices: [{name: all}]\n");
  auto context = f.context();
  gd::Probed<gd::ContainerFacts> notes;
  const auto specs = gd::read_cdi_specs(context, notes, false);
  CHECK(specs.size() == 1);
  REQUIRE(notes.unreadable.size() == 2);
  CHECK(notes.unreadable[0].path == "/var/run/cdi/k8s.gpu.nvidia.com-claim_0.yaml");
  CHECK(notes.unreadable[0].problem == "cannot read: ELOOP, nor 2 more spec(s) alike");
  CHECK(notes.unreadable[1].problem == "cannot read: ENOTDIR");  // another error: its own note
}
