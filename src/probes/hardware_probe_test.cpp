#include "probes/hardware_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("hardware: GPUs, their brand from the table, and the link") {
  gd::ProbeFixture f;
  f.pci_gpu("0000:01:00.0", "2330", "nvidia");  // H100 SXM5
  f.pci_gpu("0000:02:00.0", "2b85", "");        // RTX 5090, bound to nothing
  f.host.file("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n");
  f.host.file("/sys/bus/pci/devices/0000:03:00.0/vendor", "junk\n");
  auto context = f.context();
  const auto layer = gd::probe_hardware(context);
  CHECK(layer.status == gd::Status::ok);
  CHECK(layer.facts.pci_function_count == 4);
  REQUIRE(layer.facts.gpu_count == 2);
  const auto& h100 = layer.facts.gpus[0];
  CHECK(h100.brand == gd::GpuBrand::tesla);
  CHECK(h100.product_class == gd::ProductClass::datacenter);
  CHECK(h100.compute_capability == "9.0");
  CHECK(h100.driver == "nvidia");
  CHECK(h100.link->width_degraded == true);
  CHECK(layer.facts.gpus[1].brand == gd::GpuBrand::geforce);
  CHECK(layer.facts.gpus[1].driver == "none");
  CHECK(layer.facts.consumer_gpu_count == 1);
  CHECK(layer.facts.min_compute_capability == "9.0");
  REQUIRE(layer.unreadable.size() == 1);
  CHECK(layer.unreadable[0].path == "/sys/bus/pci/devices/0000:03:00.0/vendor");
}

TEST_CASE("hardware: no PCI bus is unknown on Linux, skip under WSL2") {
  gd::ProbeFixture f;
  auto context = f.context();
  auto layer = gd::probe_hardware(context);
  CHECK(layer.facts.pci_scan == "ENOENT");
  CHECK(layer.status == gd::Status::unknown);
  context.system.platform = gd::Platform::wsl2;
  CHECK(gd::probe_hardware(context).status == gd::Status::skip);
}

TEST_CASE("driver names compare as the kernel writes them, in any case: nova-core's PCI driver is NovaCore") {
  CHECK(gd::driver_kind("nvidia") == gd::DriverKind::nvidia);
  CHECK(gd::driver_kind("nouveau") == gd::DriverKind::open_source);
  CHECK(gd::driver_kind("NovaCore") == gd::DriverKind::open_source);
  CHECK(gd::driver_kind("nova_core") == gd::DriverKind::open_source);
  CHECK(gd::driver_kind("nova-core") == gd::DriverKind::open_source);
  CHECK(gd::driver_kind("vfio-pci") == gd::DriverKind::passthrough);
  CHECK(gd::driver_kind("pci-stub") == gd::DriverKind::passthrough);
  CHECK(gd::driver_kind("none") == gd::DriverKind::none);
  CHECK(gd::driver_kind("nvidia_drm") == gd::DriverKind::other);
  CHECK(gd::driver_kind("xhci_hcd") == gd::DriverKind::other);
}

TEST_CASE("hardware: a ConnectX bridge whose VPD says SMDL=SW_MNG is an NVSwitch management port; other NICs and unreadable VPD are not") {
  gd::ProbeFixture f;
  auto nic = [&](const std::string& bdf, const std::string& device) {
    const std::string dir = "/sys/bus/pci/devices/" + bdf;
    f.host.file(dir + "/vendor", "0x15b3\n").file(dir + "/device", device + "\n").file(dir + "/class", "0x020700\n");
    return dir;
  };
  f.host.file(nic("0000:05:00.0", "0x1021") + "/vpd", std::string("\x82\x05", 2) + "CX7..\x90" + "VA\x17MLX:MN=MLNX:SMDL=SW_MNG");
  f.host.file(nic("0000:06:00.0", "0x1021") + "/vpd", "VA=MLX:MN=MLNX:CSKU=V2");  // the full-function port: no SMDL
  nic("0000:07:00.0", "0x1021");                                                  // VPD unreadable (not root)
  f.host.file(nic("0000:08:00.0", "0x1017") + "/vpd", "SMDL=SW_MNG");             // a ConnectX-5: never read
  auto context = f.context();
  const auto facts = gd::probe_hardware(context).facts;
  CHECK(facts.nvswitch_management_ports == std::vector<std::string>{"0000:05:00.0"});
  CHECK(facts.bridge_vpd_unreadable == 1);
  CHECK(facts.gpu_count == 0);
}
