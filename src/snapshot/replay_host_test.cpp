#include "snapshot/replay_host.h"

#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cerrno>

namespace {

void write_snapshot(const gd::TempDir& dir, const std::string& json_text) {
  dir.write("snapshot.json", json_text);
  dir.mkdir("root");
}

}  // namespace

TEST_CASE("replay serves files from root/ and everything else from snapshot.json") {
  gd::TempDir dir;
  dir.write("snapshot.json", R"({"format": "gpudoctor-snapshot/1",
    "env": {"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": ""},
    "uname": {"sysname": "Linux", "release": "6.1.0", "version": "#1", "machine": "x86_64"},
    "user": {"uid": 1000, "gid": 1000, "groups": [44]},
    "devices": {"/dev/nvidiactl": {"type": "char", "major": 195, "minor": 255, "mode": "0666", "uid": 0, "gid": 0,
                                   "open": "ok", "driver_version": "550.54.15"},
                "/dev/nvidia-caps/nvidia-cap1": {"type": "char", "major": 511, "minor": 1, "mode": "0400", "uid": 0, "gid": 0}},
    "errors": {"/proc/driver/nvidia/params": "EACCES"}, "directories": ["/sys/module"],
    "commands": [{"argv": ["nvidia-smi", "-L"], "exit": 0, "stdout": "GPU 0\n", "stderr": "", "timed_out": false}],
    "children": [{"kind": "command", "args": ["dmesg"], "exit": 0, "stdout": "NVRM: newest\n", "stderr": "", "timed_out": false,
                  "truncated": true}]})");
  dir.write("root/proc/driver/nvidia/version", "NVRM version: 550.54.15\n");
  dir.write("root/proc/driver/nvidia/params", "x");
  dir.symlink("root/sys/bus/pci/devices/0000:01:00.0/driver", "../../../../bus/pci/drivers/nvidia");
  gd::ReplayHost host(dir.path());

  CHECK(host.read_file("/proc/driver/nvidia/version", 1024).value() == "NVRM version: 550.54.15\n");
  CHECK(host.read_file("/proc/driver/nvidia/version", 4).value() == "NVRM");
  CHECK(host.read_file("/proc/driver/nvidia/params", 1024).error().value() == EACCES);
  CHECK(host.read_file("/nothing", 1024).error().value() == ENOENT);
  CHECK(host.read_link("/sys/bus/pci/devices/0000:01:00.0/driver").value() == "../../../../bus/pci/drivers/nvidia");

  SUBCASE("a child's answer that was cut is replayed as cut") {
    const auto dmesg = host.ask({.kind = gd::ChildKind::command, .args = {"dmesg"}});
    CHECK(dmesg.output == "NVRM: newest\n");
    CHECK(dmesg.truncated);
    CHECK_FALSE(host.ask({.kind = gd::ChildKind::command, .args = {"nvidia-smi", "-L"}}).truncated);
  }

  SUBCASE("environment: present, empty, and unset are different") {
    CHECK(host.env("NVIDIA_VISIBLE_DEVICES") == "all");
    CHECK(host.env("NVIDIA_DRIVER_CAPABILITIES") == "");
    CHECK_FALSE(host.env("LD_LIBRARY_PATH"));
    CHECK(host.env_with_prefix("NVIDIA_").size() == 2);
  }
  SUBCASE("devices") {
    auto node = host.device("/dev/nvidiactl").value();
    CHECK(node.major == 195);
    CHECK(node.minor == 255);
    CHECK(node.mode == 0666);
    // A snapshot that kept open results in its device records answers
    // device_open requests from them; a node never tried gets no line.
    const auto answer = host.ask({gd::ChildKind::device_open, {"/dev/nvidiactl", "/dev/nvidia-caps/nvidia-cap1"}, {}});
    CHECK(answer.output == "0 open=ok version=550.54.15\n");
    CHECK(host.device("/dev/nvidia0").error().value() == ENOENT);  // not in devices: does not exist
    CHECK(host.stat("/dev/nvidiactl").value().type == gd::FileType::char_device);
  }
  SUBCASE("/dev is listed from the device map") {
    auto names = host.list_dir("/dev").value();
    CHECK(names == std::vector<std::string>{"nvidia-caps", "nvidiactl"});
    CHECK(host.list_dir("/dev/nvidia-caps").value() == std::vector<std::string>{"nvidia-cap1"});
  }
  SUBCASE("a captured empty directory exists without anything under root/") {
    CHECK(host.list_dir("/sys/module").value().empty());
    CHECK(host.stat("/sys/module").value().type == gd::FileType::directory);
    CHECK(host.list_dir("/sys/other").error().value() == ENOENT);
  }
  SUBCASE("uname, user, commands") {
    CHECK(host.uname().release == "6.1.0");
    CHECK(host.user().groups == std::vector<std::uint32_t>{44});
    CHECK(host.ask({gd::ChildKind::command, {"nvidia-smi", "-L"}, std::chrono::seconds(1)}).output == "GPU 0\n");
    CHECK(host.ask({gd::ChildKind::command, {"nvidia-smi", "-q"}, std::chrono::seconds(1)}).error == "not-recorded");
  }
}

TEST_CASE("a directory that is not a snapshot is refused with a clear error") {
  SUBCASE("no snapshot.json") {
    gd::TempDir empty;
    CHECK_THROWS_AS(gd::ReplayHost(empty.path()), gd::SnapshotError);
  }
  SUBCASE("not JSON") {
    gd::TempDir dir;
    write_snapshot(dir, "{ broken");
    CHECK_THROWS_AS(gd::ReplayHost(dir.path()), gd::SnapshotError);
  }
  SUBCASE("a FIFO where snapshot.json should be: said, never waited on") {
    gd::TempDir dir;
    REQUIRE(::mkfifo((dir / "snapshot.json").c_str(), 0600) == 0);
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("not a regular file"), gd::SnapshotError);
  }
  SUBCASE("a JSON array, and a file over the limit") {
    gd::TempDir dir;
    write_snapshot(dir, "[]");
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("the top level is not a JSON object"), gd::SnapshotError);
    write_snapshot(dir, std::string(17 << 20, ' '));
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("larger than the 16 MB limit"), gd::SnapshotError);
  }
  SUBCASE("another schema, by either name") {
    gd::TempDir dir;
    write_snapshot(dir, R"({"schema": "gpudoctor-snapshot/2", "format": "gpudoctor-snapshot/1"})");
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("schema is not gpudoctor-snapshot/1"), gd::SnapshotError);
  }
  SUBCASE("another format") {
    gd::TempDir dir;
    write_snapshot(dir, R"({"format": "something-else/9"})");
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("gpudoctor-snapshot/1"), gd::SnapshotError);
  }
}

TEST_CASE("snapshots beyond what a real system can hold are refused, before they cost memory") {
  gd::TempDir dir;
  SUBCASE("more variables than any environment") {
    std::string env;
    for (int i = 0; i < 70000; ++i) env += (i ? ",\"V" : "\"V") + std::to_string(i) + "\":\"\"";
    write_snapshot(dir, R"({"format": "gpudoctor-snapshot/1", "env": {)" + env + "}}");
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("70000 variables"), gd::SnapshotError);
  }
  SUBCASE("a variable longer than Linux allows") {
    write_snapshot(dir, R"({"format": "gpudoctor-snapshot/1", "env": {"NVIDIA_VISIBLE_DEVICES": ")" +
                            std::string(200 * 1024, ',') + "\"}}");
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("128 KiB"), gd::SnapshotError);
  }
  SUBCASE("millions of values") {
    std::string many = R"({"format": "gpudoctor-snapshot/1", "directories": [0)";
    for (int i = 0; i < 1'100'000; ++i) many += ",0";
    write_snapshot(dir, many + "]}");
    CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("more than 1000000 values"), gd::SnapshotError);
  }
}

TEST_CASE("mistyped snapshot fields fall back to defaults instead of throwing") {
  gd::TempDir dir;
  write_snapshot(dir, R"({"format": "gpudoctor-snapshot/1", "env": {"A": 5, "B": "b"}, "user": {"uid": "root"},
    "devices": {"/dev/nvidiactl": {"major": "x", "mode": "9999"}, "/dev/x": 7}, "commands": [1, {"argv": "no"}]})");
  gd::ReplayHost host(dir.path());
  CHECK_FALSE(host.env("A"));
  CHECK(host.env("B") == "b");
  CHECK(host.user().uid == 0);
  CHECK(host.device("/dev/nvidiactl").value().major == 0);
  CHECK(host.device("/dev/nvidiactl").value().mode == 0);
  CHECK(host.device("/dev/x").error().value() == ENOENT);
}

TEST_CASE("a snapshot whose root is a symlink is refused: it would describe this machine") {
  gd::TempDir dir;
  dir.write("snapshot.json", R"({"format": "gpudoctor-snapshot/1"})");
  dir.symlink("root", "/");
  CHECK_THROWS_WITH_AS(gd::ReplayHost(dir.path()), doctest::Contains("never a symlink"), gd::SnapshotError);
}
