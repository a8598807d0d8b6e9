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
  CHECK(h100.brand == "tesla");
  CHECK(h100.product_class == "datacenter");
  CHECK(h100.compute_capability == "9.0");
  CHECK(h100.driver == "nvidia");
  CHECK(h100.link->width_degraded == true);
  CHECK(layer.facts.gpus[1].brand == "geforce");
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
