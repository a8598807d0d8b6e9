#include "probes/container_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("container: runtime, injection and the toolkit's variables") {
  gd::ProbeFixture f;
  f.host.file("/.dockerenv", "");
  f.host.env_var("NVIDIA_VISIBLE_DEVICES", "all").env_var("NVIDIA_DRIVER_CAPABILITIES", "utility");
  f.host.file("/proc/self/mountinfo", "1 0 0:1 / /proc/driver/nvidia rw - tmpfs tmpfs rw\n");
  f.host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0666, 0, 0, {}, {}};
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK(layer.facts.in_container);
  CHECK(*layer.facts.runtime == "docker");
  CHECK(layer.facts.injection == gd::Injection::legacy);
  CHECK(layer.facts.gpu_requested);
  CHECK(layer.facts.gpu_nodes_present == true);
  CHECK(layer.facts.driver_capabilities.effective == std::vector<std::string>{"utility"});
}

TEST_CASE("container: on a host the layer is skip, and the variables are still read") {
  gd::ProbeFixture f;
  f.host.env_var("NVIDIA_VISIBLE_DEVICES", "void");
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK_FALSE(layer.facts.in_container);
  CHECK(layer.status == gd::Status::skip);
  CHECK(layer.facts.visible_devices.mode == gd::VisibleMode::void_);
  CHECK_FALSE(layer.facts.injection);
}
