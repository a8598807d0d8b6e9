#include "probes/integrated_gpu.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

using namespace std::string_literals;

TEST_CASE("nv_tegra_release: R36 REVISION 4.0 is L4T 36.4.0; anything else is not a release") {
  CHECK(gd::parse_tegra_release("# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64\n") == "36.4.0");
  CHECK(gd::parse_tegra_release("# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t210ref, EABI: aarch64\n") == "32.7.1");
  CHECK_FALSE(gd::parse_tegra_release("# R36 (release), GCID: 1\n"));
  CHECK_FALSE(gd::parse_tegra_release("# Rxx (release), REVISION: 4.0,\n"));
  CHECK_FALSE(gd::parse_tegra_release("# R36 (release), REVISION: 4.0\x1b[31m,\n"));
  CHECK_FALSE(gd::parse_tegra_release(""));
}

TEST_CASE("integrated GPU: the SoC from the device tree, the GPU from the table, the release and the bound driver") {
  gd::ProbeFixture f;
  f.host.file("/proc/device-tree/compatible", "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0"s);
  f.host.file("/proc/device-tree/model", "NVIDIA Jetson AGX Orin Developer Kit\0"s);
  f.host.file("/etc/nv_tegra_release", "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64\n");
  f.host.dir("/sys/bus/platform/devices/17000000.gpu");
  f.host.dir("/sys/bus/platform/devices/3610000.usb");
  f.host.link("/sys/bus/platform/devices/17000000.gpu/driver", "../../../../bus/platform/drivers/gk20a");
  auto context = f.context();
  gd::Probed<gd::HardwareFacts> notes;
  const auto gpu = gd::probe_integrated_gpu(context, notes);
  REQUIRE(gpu);
  CHECK(gpu->soc == "nvidia,tegra234");
  CHECK(*gpu->chip == "GA10B");
  CHECK(*gpu->compute_capability == "8.7");
  CHECK(*gpu->model == "NVIDIA Jetson AGX Orin Developer Kit");
  CHECK(*gpu->l4t_release == "36.4.0");
  CHECK(*gpu->jetpack == "6.1/6.2");
  CHECK(*gpu->driver_cuda == "12.6");
  CHECK(*gpu->device == "/sys/bus/platform/devices/17000000.gpu");
  CHECK(*gpu->driver == "gk20a");
}

TEST_CASE("integrated GPU: soc0/family alone says Tegra; an unknown SoC or release is said, not guessed") {
  gd::ProbeFixture f;
  f.host.file("/sys/devices/soc0/family", "Tegra\n");
  f.host.file("/etc/nv_tegra_release", "garbage\n");
  auto context = f.context();
  gd::Probed<gd::HardwareFacts> notes;
  const auto gpu = gd::probe_integrated_gpu(context, notes);
  REQUIRE(gpu);
  CHECK(gpu->soc == "tegra");
  CHECK_FALSE(gpu->chip);
  CHECK_FALSE(gpu->l4t_release);
  CHECK_FALSE(gpu->driver);
  REQUIRE(notes.unreadable.size() == 1);
  CHECK(notes.unreadable[0].path == "/etc/nv_tegra_release");
}

TEST_CASE("integrated GPU: none on a PC, whatever its PCI bus holds") {
  gd::ProbeFixture f;
  f.host.file("/sys/devices/soc0/family", "AMD\n");
  auto context = f.context();
  gd::Probed<gd::HardwareFacts> notes;
  CHECK_FALSE(gd::probe_integrated_gpu(context, notes));
}

TEST_CASE("integrated GPU: Thor (JetPack 7) is driven by the open nvidia module, Orin by nvgpu, as the table says") {
  auto module_of = [](const std::string& compatible, const std::string& release) {
    gd::ProbeFixture f;
    f.host.file("/proc/device-tree/compatible", compatible);
    f.host.file("/etc/nv_tegra_release", release);
    auto context = f.context();
    gd::Probed<gd::HardwareFacts> notes;
    const auto gpu = gd::probe_integrated_gpu(context, notes);
    REQUIRE(gpu);
    return std::pair{gpu->kernel_module.value, gpu->jetpack.value};
  };
  const auto [thor_module, thor_jetpack] = module_of("nvidia,p3834-0008\0nvidia,tegra264\0"s,
                                                     "# R38 (release), REVISION: 4.0, GCID: 1, BOARD: generic, EABI: aarch64\n");
  CHECK(thor_module == "nvidia");
  CHECK(thor_jetpack == "7.1");
  CHECK(module_of("nvidia,tegra234\0"s, "# R36 (release), REVISION: 4.0, GCID: 1, BOARD: generic, EABI: aarch64\n").first == "nvgpu");
}
