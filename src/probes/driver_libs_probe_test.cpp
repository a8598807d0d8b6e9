#include "probes/driver_libs_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("driver-libs: no libcuda, and the toolkit's stub noticed") {
  gd::ProbeFixture f;
  f.host.file("/usr/local/cuda-12.4/lib64/stubs/libcuda.so", "not an ELF file");
  auto context = f.context();
  auto layer = gd::probe_driver_libs(context);
  gd::finish_driver_libs(context, layer);
  REQUIRE(layer.facts.libraries.size() == 4);
  CHECK_FALSE(layer.facts.libraries[0].found);
  CHECK(layer.facts.libraries[0].name == "libcuda.so.1");
  CHECK_FALSE(layer.facts.libraries[0].tried.empty());
  CHECK(layer.facts.stubs == std::vector<std::string>{"/usr/local/cuda-12.4/lib64/stubs/libcuda.so"});
  CHECK(layer.summary == "no libcuda.so.1 for a program to load");
}

TEST_CASE("driver-libs: the GPU list comes from the most detailed evidence that listed GPUs") {
  gd::DriverLibsFacts facts;
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::files);  // nothing ran: sysfs and /proc

  facts.cuda_probe.emplace();
  facts.cuda_probe->init_result = 0;
  facts.cuda_probe->devices.emplace_back();
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::cuda);

  facts.nvidia_smi_run.emplace();
  facts.nvidia_smi_run->gpus.emplace_back();
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::nvidia_smi);
  facts.nvidia_smi_run->status = gd::ChildStatus::timed_out;  // what it printed before the deadline is not trusted
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::cuda);

  facts.nvml_probe.emplace();
  facts.nvml_probe->init_result = 18;  // library/driver mismatch: its devices mean nothing
  facts.nvml_probe->devices.emplace_back();
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::cuda);
  facts.nvml_probe->init_result = 0;
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::nvml);
  facts.nvml_probe->devices.clear();  // NVML answered, but with no device: the next source
  CHECK(gd::gpu_list_source(facts) == gd::GpuListSource::cuda);
}
