#include "probes/kernel_module_probe.h"

#include "probes/hardware_probe.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("kernel-module: loaded module, version, claimed and unclaimed GPUs") {
  gd::ProbeFixture f;
  f.pci_gpu("0000:01:00.0", "2330", "nvidia");
  f.pci_gpu("0000:02:00.0", "2330", "nouveau");
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\nnouveau 1 0 - Live 0x0\nnvidia_peermem 1 0 - Live 0x0\n");
  f.host.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build\n");
  f.host.file("/proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \t\t NVIDIA H100\nDevice Minor: \t 0\nGPU UUID: \t GPU-1234\n");
  auto context = f.context();
  context.hardware = gd::probe_hardware(context).facts;
  const auto layer = gd::probe_kernel_module(context);
  CHECK(*layer.facts.loaded);
  CHECK(*layer.facts.modules.nouveau);
  CHECK_FALSE(*layer.facts.modules.nvidia_uvm);
  CHECK(*layer.facts.modules.nvidia_peermem);  // GPUDirect modules are facts
  CHECK_FALSE(*layer.facts.modules.nvidia_fs);
  CHECK(layer.facts.version == "550.54.15");
  CHECK(layer.facts.flavour == "open");
  CHECK(layer.facts.driver_cuda == "12.4");
  REQUIRE(layer.facts.claimed_gpus.size() == 1);
  CHECK(layer.facts.claimed_gpus[0].minor == 0);
  CHECK(layer.facts.claimed_gpus[0].uuid == "GPU-1234");
  REQUIRE(layer.facts.unclaimed_gpus.size() == 1);
  CHECK(layer.facts.unclaimed_gpus[0].driver == "nouveau");
}

TEST_CASE("kernel-module: a truncated version file is not trusted") {
  gd::ProbeFixture f;
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  f.host.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.5");
  auto context = f.context();
  const auto layer = gd::probe_kernel_module(context);
  CHECK_FALSE(layer.facts.version);
  REQUIRE(layer.unreadable.size() == 1);
  CHECK(layer.unreadable[0].problem.find("truncated") != std::string::npos);
}
