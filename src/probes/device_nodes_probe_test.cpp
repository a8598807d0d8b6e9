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
  CHECK(layer.facts.nodes[0].access == gd::NodeAccess::none);  // 0600 root's, and we are uid 1000
  REQUIRE(layer.facts.missing_gpu_nodes.size() == 1);
  CHECK(layer.facts.missing_gpu_nodes[0].path == "/dev/nvidia1");
  REQUIRE(layer.facts.cuda_visible_devices);
  CHECK(layer.facts.cuda_visible_devices->selected == 1);
  CHECK(*layer.facts.cuda_visible_devices->stopped_at == "5");
}

TEST_CASE("device-nodes: who makes a missing node when libcuda first opens the driver") {
  constexpr const char* with_mknod = "Name:\tpython3\nCapEff:\t000001ffffffffff\n";
  constexpr const char* without_mknod = "Name:\tpython3\nCapEff:\t0000000000000000\n";
  const auto repair = [](const char* status, auto&& setup) {
    gd::ProbeFixture f;
    f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
    if (status) f.host.file("/proc/self/status", status);
    f.host.file("/usr/bin/nvidia-modprobe", "");
    auto context = f.context();
    context.kernel_module.loaded = true;
    context.kernel_module.params["ModifyDeviceFiles"] = "1";
    context.kernel_module.nvidia_modprobe = true;  // as the kernel-module layer found /usr/bin/nvidia-modprobe
    setup(f.host, context);
    return gd::probe_device_nodes(context).facts;
  };
  const auto nothing = [](gd::FakeHost&, gd::ProbeContext&) {};
  const auto facts = repair(with_mknod, nothing);
  CHECK(facts.caller_may_mknod == true);
  CHECK(facts.node_repair == gd::NodeRepair::this_caller);
  // Without CAP_MKNOD only a setuid root nvidia-modprobe makes them.
  CHECK(repair(without_mknod, nothing).caller_may_mknod == false);
  CHECK(repair(without_mknod, nothing).node_repair == gd::NodeRepair::nobody);
  CHECK(repair(without_mknod, [](gd::FakeHost& host, gd::ProbeContext&) {
          host.file_stats["/usr/bin/nvidia-modprobe"] = {gd::FileType::regular, 04755, 0, 0, 0};
        }).node_repair == gd::NodeRepair::nvidia_modprobe);
  CHECK(repair(without_mknod, [](gd::FakeHost& host, gd::ProbeContext&) {
          host.file_stats["/usr/bin/nvidia-modprobe"] = {gd::FileType::regular, 04755, 1000, 0, 0};  // setuid, not root's
        }).node_repair == gd::NodeRepair::nobody);
  // The driver's ModifyDeviceFiles=0 forbids it to everyone; a container's device cgroup decides there.
  CHECK(repair(with_mknod, [](gd::FakeHost&, gd::ProbeContext& context) {
          context.kernel_module.params["ModifyDeviceFiles"] = "0";
        }).node_repair == gd::NodeRepair::nobody);
  CHECK(repair(with_mknod, [](gd::FakeHost&, gd::ProbeContext& context) { context.container.in_container = true; }).node_repair ==
        gd::NodeRepair::unknown);
  // Unreadable or garbled: unknown, never a guess.
  CHECK_FALSE(repair(nullptr, nothing).caller_may_mknod.has_value());
  CHECK(repair(nullptr, nothing).node_repair == gd::NodeRepair::unknown);
  CHECK(repair("CapEff:\tzz\n", nothing).node_repair == gd::NodeRepair::unknown);
}
