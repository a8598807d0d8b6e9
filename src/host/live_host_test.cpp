#include "host/live_host.h"

#include "host/device_open_probe.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cerrno>

using namespace std::chrono_literals;

TEST_CASE("under --root, paths resolve inside the root and devices are not opened") {
  gd::TempDir root;
  root.write("proc/driver/nvidia/version", "NVRM version: 550.54.15\n");
  root.symlink("etc/alternatives/nvidia", "/proc/driver/nvidia");
  root.write("dev/nvidiactl", "");  // an image that carries a plain file where a node should be
  gd::LiveHost host(root.path());
  CHECK(host.mode() == gd::HostMode::root);
  CHECK(host.read_file("/etc/alternatives/nvidia/version", 100).value() == "NVRM version: 550.54.15\n");
  CHECK(host.read_file("/../../../proc/driver/nvidia/version", 100).has_value());
  const auto node = host.device("/dev/nvidiactl").value();
  CHECK(node.type == "file");
  CHECK_FALSE(node.open);
  CHECK(host.run({"true"}, 1s).error == "ENOSYS");  // the image's programs are never run
}

TEST_CASE("read_file refuses what is not a regular file, without blocking") {
  gd::TempDir root;
  REQUIRE(::mkfifo((root / "fifo").c_str(), 0600) == 0);
  root.mkdir("dir");
  gd::LiveHost host(root.path());
  CHECK(host.read_file("/fifo", 100).error().value() == EINVAL);
  CHECK(host.read_file("/dir", 100).error().value() == EISDIR);
  CHECK(host.read_file("/missing", 100).error().value() == ENOENT);
}

TEST_CASE("the live host opens devices in a child and reports the outcome") {
  gd::LiveHost host;
  CHECK(host.mode() == gd::HostMode::live);
  const auto null_device = host.device("/dev/null").value();
  CHECK(null_device.type == "char");
  CHECK(null_device.major == 1);
  CHECK(null_device.open == "ok");
  CHECK(host.device("/dev/gpudoctor-no-such-node").error().value() == ENOENT);
}

TEST_CASE("the version ioctl on something that is not nvidiactl yields no version") {
  const auto result = gd::probe_device_open("/dev/null", gd::AskDriverVersion::yes, 5s);
  CHECK(result.open == "ok");
  CHECK_FALSE(result.driver_version);
  CHECK(gd::probe_device_open("/nonexistent-node", gd::AskDriverVersion::no, 5s).open == "ENOENT");
}
