#include "probes/device_open.h"

#include "host/live_host.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

using namespace std::chrono_literals;

TEST_CASE("the live host opens nodes in a re-executed child") {
  gd::LiveHost host;
  // The test binary answers `__child` as gpudoctor does (doctest_main.cpp).
  const auto opened = gd::open_device_nodes(host, {"/dev/null", "/nonexistent-node"});
  REQUIRE(opened.size() == 2);
  CHECK(opened[0].open == "ok");
  CHECK_FALSE(opened[0].driver_version);  // the version ioctl goes only to 195:255
  CHECK(opened[1].open == "ENOENT");
}

TEST_CASE("an open that hangs is ETIMEDOUT, and the nodes after it are asked again") {
  gd::FakeHost host;
  gd::ChildAnswer hung;
  hung.timed_out = true;
  hung.output = "0 open=ok\n";
  host.answers["device-open /dev/nvidiactl /dev/nvidia0 /dev/nvidia1"] = hung;
  gd::ChildAnswer rest;
  rest.exit = 0;
  rest.output = "0 open=ENXIO\n";
  host.answers["device-open /dev/nvidia1"] = rest;
  const auto opened = gd::open_device_nodes(host, {"/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia1"}, 10ms);
  CHECK(opened[0].open == "ok");
  CHECK(opened[1].open == "ETIMEDOUT");
  CHECK(opened[2].open == "ENXIO");
  CHECK(host.asked.size() == 2);
}

TEST_CASE("garbage from the child leaves nodes not tried, and the version answer is kept as text") {
  gd::FakeHost host;
  gd::ChildAnswer answer;
  answer.exit = 0;
  answer.output = "junk\n99 open=ok\n-1 open=ok\n0 open=ok version=550.54.15 ioctl=EINVAL\n";
  host.answers["device-open /dev/nvidiactl /dev/nvidia0"] = answer;
  const auto opened = gd::open_device_nodes(host, {"/dev/nvidiactl", "/dev/nvidia0"});
  CHECK(opened[0].open == "ok");
  CHECK(opened[0].driver_version == "550.54.15");
  CHECK(opened[0].ioctl_error == "EINVAL");
  CHECK_FALSE(opened[1].open);
}
