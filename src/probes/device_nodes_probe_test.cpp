#include "probes/device_nodes_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("device-nodes: nodes, missing GPU nodes and CUDA_VISIBLE_DEVICES") {
  gd::ProbeFixture f;
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  f.host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0600, 0, 0, {}, {}};
  f.host.devices["/dev/nvidia0"] = {gd::FileType::char_device, 195, 0, 0666, 0, 0, {}, {}};
  f.host.env_var("CUDA_VISIBLE_DEVICES", "0,5,1");
  auto context = f.context();
  context.kernel_module.loaded = true;
  context.kernel_module.claimed_gpus = {{"0000:01:00.0", "", {}, 0, {}, {}}, {"0000:02:00.0", "", {}, 1, {}, {}}};
  const auto layer = gd::probe_device_nodes(context);
  CHECK(layer.facts.nvidiactl_present);
  CHECK_FALSE(layer.facts.uvm_present);
  CHECK(layer.facts.nodes_expected);
  REQUIRE(layer.facts.nodes.size() == 2);
  CHECK(layer.facts.nodes[0].access == "none");  // 0600 root's, and we are uid 1000
  REQUIRE(layer.facts.missing_gpu_nodes.size() == 1);
  CHECK(layer.facts.missing_gpu_nodes[0].path == "/dev/nvidia1");
  REQUIRE(layer.facts.cuda_visible_devices);
  CHECK(layer.facts.cuda_visible_devices->selected == 1);
  CHECK(*layer.facts.cuda_visible_devices->stopped_at == "5");
}
