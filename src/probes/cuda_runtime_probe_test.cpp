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
  CHECK(runtime.install == gd::RuntimeInstall::toolkit);
  CHECK(runtime.version == "12.4.127");
  CHECK(runtime.cuda == "12.4");
  CHECK(runtime.problem);  // not an ELF file: said so, still listed
  CHECK(runtime.driver_source == "driver 550.54.15");
  CHECK(runtime.driver_cuda_major == 12);
  CHECK_FALSE(runtime.loader_reaches);
}

TEST_CASE("cuda-runtime: conda's runtime, found through the python3 on PATH, named by its conda-meta record") {
  gd::ProbeFixture f;
  // An image's conda: PATH=/opt/conda/bin:..., never activated (no CONDA_PREFIX).
  f.host.env_var("PATH", "/opt/conda/bin:/usr/bin").file("/opt/conda/bin/python3.10", "").link("/opt/conda/bin/python3", "python3.10");
  f.host.file("/opt/conda/lib/libcudart.so.11.8.89", "x").link("/opt/conda/lib/libcudart.so.11.0", "libcudart.so.11.8.89");
  f.host.file("/opt/conda/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json",
              R"({"name": "cudatoolkit", "version": "11.8.0", "files": ["lib/libcudart.so.11.0", "lib/libcudart.so.11.8.89"]})");
  f.host.file("/opt/conda/conda-meta/python-3.10.13-h955ad1f_0.json", R"({"files": ["lib/libcudart.so.11.8.89"]})");
  auto context = f.context();
  context.kernel_module.version = "550.54.15";
  context.kernel_module.driver_cuda = "12.4";
  auto layer = gd::probe_cuda_runtime(context);
  REQUIRE(layer.facts.runtime_count == 1);
  CHECK(layer.facts.runtimes[0].install == gd::RuntimeInstall::conda);
  CHECK(layer.facts.runtimes[0].version == "11.8.89");
  CHECK(layer.facts.runtimes[0].package == "cudatoolkit 11.8.0");  // not python: it ships no CUDA library

  // Without conda-meta the same tree is no conda environment.
  gd::ProbeFixture plain;
  plain.host.env_var("PATH", "/opt/conda/bin:/usr/bin").file("/opt/conda/bin/python3", "");
  plain.host.file("/opt/conda/lib/libcudart.so.11.8.89", "x").link("/opt/conda/lib/libcudart.so.11.0", "libcudart.so.11.8.89");
  auto plain_context = plain.context();
  CHECK(gd::probe_cuda_runtime(plain_context).facts.runtime_count == 0);
}

TEST_CASE("cuda-runtime: conda-forge's split CUDA 12 packages keep the runtime under targets/<arch>/lib") {
  gd::ProbeFixture f;
  f.host.env_var("CONDA_PREFIX", "/root/miniforge3/envs/train");
  const std::string prefix = "/root/miniforge3/envs/train";
  f.host.file(prefix + "/targets/x86_64-linux/lib/libcudart.so.12.4.127", "x");
  f.host.link(prefix + "/targets/x86_64-linux/lib/libcudart.so.12", "libcudart.so.12.4.127");
  f.host.link(prefix + "/lib/libcudart.so.12", "../targets/x86_64-linux/lib/libcudart.so.12");
  f.host.file(prefix + "/conda-meta/cuda-cudart_linux-64-12.4.127-h85509e4_2.json",
              R"({"files": ["targets/x86_64-linux/lib/libcudart.so.12", "targets/x86_64-linux/lib/libcudart.so.12.4.127"]})");
  auto context = f.context();
  auto layer = gd::probe_cuda_runtime(context);
  REQUIRE(layer.facts.runtime_count == 1);
  CHECK(layer.facts.runtimes[0].install == gd::RuntimeInstall::conda);
  CHECK(layer.facts.runtimes[0].package == "cuda-cudart_linux-64 12.4.127");
}
