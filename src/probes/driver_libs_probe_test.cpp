#include "probes/driver_libs_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("driver-libs: no libcuda, and the toolkit's stub noticed") {
  gd::ProbeFixture f;
  f.host.file("/usr/local/cuda-12.4/lib64/stubs/libcuda.so", "not an ELF file");
  auto context = f.context();
  const auto layer = gd::probe_driver_libs(context);
  REQUIRE(layer.facts.libraries.size() == 4);
  CHECK_FALSE(layer.facts.libraries[0].found);
  CHECK(layer.facts.libraries[0].name == "libcuda.so.1");
  CHECK_FALSE(layer.facts.libraries[0].tried.empty());
  CHECK(layer.facts.stubs == std::vector<std::string>{"/usr/local/cuda-12.4/lib64/stubs/libcuda.so"});
  CHECK(layer.summary == "no libcuda.so.1 for a program to load");
}
