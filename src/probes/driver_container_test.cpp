#include "probes/driver_container.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("GPU Operator: the driver container's root at /run/nvidia/driver, running or empty") {
  gd::FakeHost host;
  CHECK_FALSE(gd::find_driver_container(host));  // no operator here

  host.dir("/run/nvidia/driver");
  auto empty = gd::find_driver_container(host);
  REQUIRE(empty);
  CHECK(empty->state == gd::DriverContainerState::empty);
  CHECK_FALSE(empty->libcuda);
  CHECK(empty->validations.empty());

  host.file("/run/nvidia/driver/usr/lib64/libcuda.so.1", "link stand-in");
  host.file("/run/nvidia/driver/usr/lib64/libcuda.so.570.86.15", "elf");
  host.file("/run/nvidia/driver/usr/bin/nvidia-smi", "");
  host.file("/run/nvidia/nvidia-driver.pid", "1\n");
  host.file("/run/nvidia/validations/toolkit-ready", "");
  host.file("/run/nvidia/validations/driver-ready", "");
  auto running = gd::find_driver_container(host);
  REQUIRE(running);
  CHECK(running->state == gd::DriverContainerState::running);
  CHECK(running->libcuda.value == "/run/nvidia/driver/usr/lib64/libcuda.so.570.86.15");
  CHECK(running->version.value == "570.86.15");
  CHECK(running->nvidia_smi);
  CHECK(running->pid_file);
  CHECK(running->validations == std::vector<std::string>{"driver-ready", "toolkit-ready"});
}

TEST_CASE("GPU Operator: a file at /run/nvidia/driver is no driver root") {
  gd::FakeHost host;
  host.file("/run/nvidia/driver", "");
  CHECK_FALSE(gd::find_driver_container(host));
}
