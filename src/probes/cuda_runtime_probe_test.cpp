#include "probes/cuda_runtime_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("cuda-runtime: a toolkit's runtime, its version from the file name, the driver it talks to") {
  gd::ProbeFixture f;
  f.host.file("/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "not an ELF file");
  f.host.link("/usr/local/cuda-12.4/lib64/libcudart.so.12", "libcudart.so.12.4.127");
  auto context = f.context();
  context.kernel_module.version = "550.54.15";
  context.kernel_module.driver_cuda = "12.4";
  const auto layer = gd::probe_cuda_runtime(context);
  REQUIRE(layer.facts.runtime_count == 1);
  const auto& runtime = layer.facts.runtimes[0];
  CHECK(runtime.name == "libcudart.so.12");
  CHECK(runtime.install == "toolkit");
  CHECK(runtime.version == "12.4.127");
  CHECK(runtime.cuda == "12.4");
  CHECK(runtime.problem);  // not an ELF file: said so, still listed
  CHECK(runtime.driver_source == "driver 550.54.15");
  CHECK(runtime.driver_cuda_major == 12);
  CHECK_FALSE(runtime.loader_reaches);
}
