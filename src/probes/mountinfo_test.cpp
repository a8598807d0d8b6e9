#include "probes/mountinfo.h"

#include <doctest/doctest.h>

TEST_CASE("mountinfo: root, mount point and fstype; junk lines skipped") {
  const auto mounts = gd::parse_mountinfo(
      "1071 1000 0:62 / / rw,relatime master:1 - overlay overlay rw\n"
      "1110 1071 0:90 /usr/lib/wsl/drivers/nv/libcuda.so.1.1 /usr/lib/x86_64-linux-gnu/libcuda.so.1.1 ro master:2 - 9p drivers ro\n"
      "garbage\n"
      "1 2 3 /r /m no-separator-here\n");
  REQUIRE(mounts.size() == 3);
  CHECK(mounts[0].fstype == "overlay");
  CHECK(mounts[1].root == "/usr/lib/wsl/drivers/nv/libcuda.so.1.1");
  CHECK(mounts[1].mount_point == "/usr/lib/x86_64-linux-gnu/libcuda.so.1.1");
  CHECK(mounts[1].fstype == "9p");
  CHECK(mounts[1].source == "drivers");
  CHECK(mounts[0].source == "overlay");
  CHECK(mounts[2].fstype.empty());
  CHECK(mounts[2].source.empty());
}

TEST_CASE("mountinfo: the mount a path lies on, the one on top where two share a point; its options as words") {
  const auto mounts = gd::parse_mountinfo(
      "1 0 0:1 / / rw,relatime - overlay overlay rw\n"
      "2 1 0:2 / /dev rw,nosuid - tmpfs tmpfs rw,mode=755\n"
      "3 1 0:3 / /dev/nvidia-caps rw,nosuid,nodev - tmpfs tmpfs rw\n"
      "4 2 0:4 / /dev rw,nosuid,nodev,noexec - tmpfs tmpfs rw\n"
      "5 2 0:5 /nvidia0 /dev/nvidia0 rw,nosuid - devtmpfs udev rw\n");
  REQUIRE(mounts.size() == 5);
  CHECK(mounts[2].options == "rw,nosuid,nodev");
  const auto* ctl = gd::mount_of(mounts, "/dev/nvidiactl");
  REQUIRE(ctl);
  CHECK(ctl->mount_point == "/dev");
  CHECK(gd::has_mount_option(*ctl, "nodev"));  // the later /dev mount hides the first
  CHECK_FALSE(gd::has_mount_option(*ctl, "node"));
  const auto* gpu = gd::mount_of(mounts, "/dev/nvidia0");
  REQUIRE(gpu);
  CHECK(gpu->mount_point == "/dev/nvidia0");  // a node bound on its own
  CHECK_FALSE(gd::has_mount_option(*gpu, "nodev"));
  CHECK(gd::mount_of(mounts, "/dev/nvidia-caps/nvidia-cap1")->mount_point == "/dev/nvidia-caps");
  CHECK(gd::mount_of(mounts, "/device")->mount_point == "/");  // "/dev" is no parent of /device
  CHECK_FALSE(gd::mount_of({}, "/dev/nvidia0"));
}
