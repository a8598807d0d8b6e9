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
