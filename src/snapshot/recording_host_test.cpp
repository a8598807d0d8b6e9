#include "snapshot/recording_host.h"

#include "host/live_host.h"
#include "snapshot/replay_host.h"
#include "snapshot/snapshot_archive.h"
#include "test_support/fake_host.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the recorder keeps exactly what was read, and the result replays") {
  gd::TempDir system;
  system.write("proc/driver/nvidia/version", "NVRM version: 550.54.15 and a long tail");
  system.write("proc/unread", "never read");
  system.symlink("sys/bus/pci/devices/0000:01:00.0/driver", "../../../../bus/pci/drivers/nvidia");
  system.mkdir("etc/ld.so.conf.d");
  gd::LiveHost live(system.path());
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  gd::RecordingHost recorder(live, out.path());

  CHECK(recorder.read_file("/proc/driver/nvidia/version", 20).value() == "NVRM version: 550.54");
  CHECK(recorder.read_link("/sys/bus/pci/devices/0000:01:00.0/driver").has_value());
  CHECK(recorder.list_dir("/etc/ld.so.conf.d").has_value());
  CHECK_FALSE(recorder.read_file("/proc/missing", 10));
  REQUIRE(recorder.finish("test").has_value());

  CHECK(slurp(out / "root/proc/driver/nvidia/version") == "NVRM version: 550.54");
  CHECK_FALSE(std::filesystem::exists(out / "root/proc/unread"));
  CHECK(std::filesystem::is_directory(out / "root/etc/ld.so.conf.d"));

  gd::ReplayHost replay(out.path());
  CHECK(replay.read_file("/proc/driver/nvidia/version", 100).value() == "NVRM version: 550.54");
  CHECK(replay.read_link("/sys/bus/pci/devices/0000:01:00.0/driver").value() == "../../../../bus/pci/drivers/nvidia");
}

TEST_CASE("only the environment variables the checks read are captured") {
  gd::TempDir system;
  gd::LiveHost live(system.path());
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  ::setenv("GPUDOCTOR_TEST_SECRET", "hunter2", 1);
  ::setenv("GPUDOCTOR_TEST_READ", "yes", 1);
  gd::RecordingHost recorder(live, out.path());
  CHECK(recorder.env("GPUDOCTOR_TEST_READ") == "yes");
  REQUIRE(recorder.finish("test").has_value());
  const std::string snapshot = slurp(out / "snapshot.json");
  CHECK(snapshot.find("GPUDOCTOR_TEST_READ") != std::string::npos);
  CHECK(snapshot.find("hunter2") == std::string::npos);
  ::unsetenv("GPUDOCTOR_TEST_SECRET");
  ::unsetenv("GPUDOCTOR_TEST_READ");
}

TEST_CASE("the recorder writes through recorded symlinks, but only inside the snapshot") {
  gd::TempDir system;
  system.symlink("sys/escape", "../../../../../../tmp");
  system.write("tmp/gpudoctor-recorder-probe", "x");
  gd::LiveHost live(system.path());
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  gd::RecordingHost recorder(live, out.path());
  CHECK(recorder.read_link("/sys/escape").has_value());
  // The link's "../" climb stops at the snapshot's root, as it does on replay.
  CHECK(recorder.read_file("/sys/escape/gpudoctor-recorder-probe", 10).value() == "x");
  CHECK(std::filesystem::exists(out / "root/tmp/gpudoctor-recorder-probe"));
  CHECK_FALSE(std::filesystem::exists("/tmp/gpudoctor-recorder-probe"));
  REQUIRE(recorder.finish("test").has_value());
  gd::ReplayHost replay(out.path());
  CHECK(replay.read_file("/sys/escape/gpudoctor-recorder-probe", 10).value() == "x");
}

TEST_CASE("piecewise reads are packed: a large file keeps only the bytes read") {
  gd::TempDir system;
  std::string big(1 << 20, 'x');
  big.replace(0, 4, "HEAD");
  big.replace(900000, 4, "TAIL");
  system.write("lib/libbig.so", big);
  gd::LiveHost live(system.path());
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  gd::RecordingHost recorder(live, out.path());
  CHECK(recorder.read_range("/lib/libbig.so", 0, 4).value() == "HEAD");
  CHECK(recorder.read_range("/lib/libbig.so", 900000, 4).value() == "TAIL");
  CHECK(recorder.read_range("/lib/libbig.so", 2, 4).value() == "ADxx");  // overlaps the first piece
  REQUIRE(recorder.finish("test").has_value());
  CHECK(std::filesystem::file_size(out / "root/lib/libbig.so") == 10);

  gd::ReplayHost replay(out.path());
  CHECK(replay.stat("/lib/libbig.so").value().size == big.size());
  CHECK(replay.read_range("/lib/libbig.so", 0, 6).value() == "HEADxx");
  CHECK(replay.read_range("/lib/libbig.so", 900000, 4).value() == "TAIL");
  CHECK(replay.read_range("/lib/libbig.so", 500, 3).value() == std::string(3, '\0'));  // never read: zeros
  CHECK(replay.read_range("/lib/libbig.so", big.size() - 2, 10).value().size() == 2);
}

TEST_CASE("a snapshot keeps bytes that are not UTF-8 exactly, and replays them") {
  gd::TempDir system;
  system.write("etc/name", "x");
  gd::LiveHost live(system.path());
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  ::setenv("GPUDOCTOR_TEST_BYTES", "/tmp/\xff\xfe", 1);
  {
    gd::RecordingHost recorder(live, out.path());
    CHECK(recorder.env("GPUDOCTOR_TEST_BYTES") == "/tmp/\xff\xfe");
    REQUIRE(recorder.finish("test").has_value());
  }
  ::unsetenv("GPUDOCTOR_TEST_BYTES");
  gd::ReplayHost replay(out.path());
  CHECK(replay.env("GPUDOCTOR_TEST_BYTES") == "/tmp/\xff\xfe");
}


TEST_CASE("what a snapshot keeps always replays: files past its budget are recorded as too large, not kept") {
  gd::TempDir system;
  const std::string big(24 << 20, 'm');  // three of these pass what an archive may unpack to (64 MB)
  for (const char* name : {"a.ko", "b.ko", "c.ko"}) system.write(std::string("lib/modules/") + name, big);
  system.write("proc/version", "Linux version 6.1.0");
  gd::LiveHost live(system.path());
  gd::TempDir out;
  const std::string dir = out / "snap";
  std::filesystem::create_directories(dir + "/root");
  gd::RecordingHost recorder(live, dir);
  for (const char* name : {"a.ko", "b.ko", "c.ko"})
    CHECK(recorder.read_file(std::string("/lib/modules/") + name, 32 << 20)->size() == big.size());  // the check itself saw them
  CHECK(recorder.read_file("/proc/version", 100).has_value());
  CHECK(recorder.files_not_kept() == 1);
  REQUIRE(recorder.finish("test").has_value());
  const std::string archive = out / "snap.tar.gz";
  REQUIRE(gd::pack_snapshot(dir, archive));

  gd::ReplayHost replay(archive);  // refused before: "unpacks to more than 64 MB"
  CHECK(replay.read_file("/lib/modules/a.ko", 32 << 20)->size() == big.size());
  CHECK(replay.read_file("/lib/modules/b.ko", 32 << 20)->size() == big.size());
  CHECK(replay.read_file("/lib/modules/c.ko", 32 << 20).error().value() == EFBIG);
  CHECK(replay.read_file("/proc/version", 100).value() == "Linux version 6.1.0");
}

TEST_CASE("a snapshot.json that grew late makes room: the largest kept files go until the archive replays") {
  gd::FakeHost host;
  host.host_mode = gd::HostMode::live;
  host.file("/lib/modules/a.ko", std::string(22 << 20, 'a'));
  host.file("/lib/modules/b.ko", std::string(23 << 20, 'b'));
  const std::string value(100 << 10, 'v');
  for (int i = 0; i < 120; ++i) host.env_var("GPUDOCTOR_TEST_" + std::to_string(i), value);  // 12 MB of variables read
  gd::TempDir out;
  const std::string dir = out / "snap";
  std::filesystem::create_directories(dir + "/root");
  gd::RecordingHost recorder(host, dir);
  CHECK(recorder.read_file("/lib/modules/a.ko", 32 << 20).has_value());
  CHECK(recorder.read_file("/lib/modules/b.ko", 32 << 20).has_value());
  for (int i = 0; i < 120; ++i) CHECK(recorder.env("GPUDOCTOR_TEST_" + std::to_string(i)) == value);
  CHECK(recorder.files_not_kept() == 0);  // both fit, until snapshot.json was known
  REQUIRE(recorder.finish("test").has_value());
  CHECK(recorder.files_not_kept() == 1);
  const std::string archive = out / "snap.tar.gz";
  REQUIRE(gd::pack_snapshot(dir, archive));
  gd::ReplayHost replay(archive);
  CHECK(replay.read_file("/lib/modules/b.ko", 32 << 20).error().value() == EFBIG);  // the larger went
  CHECK(replay.read_file("/lib/modules/a.ko", 32 << 20)->size() == (22u << 20));
}

TEST_CASE("a file read twice is kept once, and counted once against the snapshot's budget") {
  gd::FakeHost host;
  host.host_mode = gd::HostMode::live;
  host.file("/lib/modules/a.ko", std::string(30 << 20, 'a'));
  host.file("/lib/modules/b.ko", std::string(20 << 20, 'b'));
  gd::TempDir out;
  const std::string dir = out / "snap";
  std::filesystem::create_directories(dir + "/root");
  gd::RecordingHost recorder(host, dir);
  CHECK(recorder.read_file("/lib/modules/a.ko", 1 << 20)->size() == (1u << 20));  // a first look at its head
  for (int i = 0; i < 3; ++i) CHECK(recorder.read_file("/lib/modules/a.ko", 32 << 20)->size() == (30u << 20));
  CHECK(recorder.read_file("/lib/modules/b.ko", 32 << 20).has_value());  // 30 + 20 fit in 56
  CHECK(recorder.files_not_kept() == 0);
  CHECK(recorder.files_written() == 2);
  REQUIRE(recorder.finish("test").has_value());
  gd::ReplayHost replay(dir);
  CHECK(replay.read_file("/lib/modules/a.ko", 32 << 20)->size() == (30u << 20));
  CHECK(replay.read_file("/lib/modules/b.ko", 32 << 20)->size() == (20u << 20));
}

TEST_CASE("variables that would make snapshot.json too large to read back go, the longest first") {
  gd::FakeHost host;
  host.host_mode = gd::HostMode::live;
  const std::string long_value(128 << 10, 'v');  // as long as Linux lets a variable be
  for (int i = 0; i < 160; ++i) host.env_var("NVIDIA_TEST_" + std::to_string(i), long_value);  // 20 MB read
  host.env_var("NVIDIA_VISIBLE_DEVICES", "all");
  gd::TempDir out;
  const std::string dir = out / "snap";
  std::filesystem::create_directories(dir + "/root");
  gd::RecordingHost recorder(host, dir);
  CHECK(recorder.env_with_prefix("NVIDIA_").size() == 161);  // the check itself saw them all
  REQUIRE(recorder.finish("test").has_value());
  CHECK(recorder.variables_not_kept() > 30);
  CHECK(recorder.variables_not_kept() < 160);
  CHECK(std::filesystem::file_size(dir + "/snapshot.json") <= gd::k_max_snapshot_json);
  gd::ReplayHost replay(dir);  // refused before: larger than the 16 MB limit
  CHECK(replay.env("NVIDIA_VISIBLE_DEVICES") == "all");  // the short one stays
  CHECK(replay.env_with_prefix("NVIDIA_").size() == 161 - recorder.variables_not_kept());
}

TEST_CASE("a file others may not read keeps its mode and owner in the snapshot: the replay's stat answers them") {
  gd::TempDir system;
  system.write("etc/cdi/nvidia.yaml", "cdiVersion: 0.5.0\n");
  system.write("etc/cdi/other.yaml", "cdiVersion: 0.5.0\n");
  std::filesystem::permissions(system / "etc/cdi/nvidia.yaml", std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  std::filesystem::permissions(system / "etc/cdi/other.yaml", std::filesystem::perms(0644));
  gd::LiveHost live(system.path());
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  gd::RecordingHost recorder(live, out.path());
  const auto live_stat = recorder.stat("/etc/cdi/nvidia.yaml");
  REQUIRE(live_stat.has_value());
  CHECK(live_stat->mode == 0600);
  CHECK(recorder.read_file("/etc/cdi/nvidia.yaml", 100).has_value());
  CHECK(recorder.stat("/etc/cdi/other.yaml").has_value());
  REQUIRE(recorder.finish("test").has_value());
  // The stored copy is the recorder's to write; its mode is not what is replayed.
  std::filesystem::permissions(out / "root/etc/cdi/nvidia.yaml", std::filesystem::perms(0644));
  const auto json = slurp(out / "snapshot.json");
  CHECK(json.find("\"file_owners\"") != std::string::npos);
  CHECK(json.find("other.yaml") == std::string::npos);  // readable by others: nothing kept
  gd::ReplayHost replay(out.path());
  const auto replayed = replay.stat("/etc/cdi/nvidia.yaml");
  REQUIRE(replayed.has_value());
  CHECK(replayed->mode == 0600);
  CHECK(replayed->uid == live_stat->uid);
  CHECK(replayed->gid == live_stat->gid);
}

TEST_CASE("a record device's records are kept as a file, and a replay gives them back, newest kept, saying what was dropped") {
  gd::FakeHost system;
  system.records["/dev/kmsg"] = {"6,1,100,-;old\n6,2,200,-;NVRM: Xid 79\n", 4096};  // the device gave more than was kept
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  gd::RecordingHost recorder(system, out.path());
  const auto live = recorder.read_records("/dev/kmsg", 1 << 20);
  REQUIRE(live.has_value());
  CHECK_FALSE(recorder.read_records("/dev/other", 100).has_value());
  REQUIRE(recorder.finish("test").has_value());
  CHECK(slurp(out / "root/dev/kmsg") == live->text);

  gd::ReplayHost replay(out.path());
  const auto replayed = replay.read_records("/dev/kmsg", 1 << 20);
  REQUIRE(replayed.has_value());
  CHECK(replayed->text == live->text);
  CHECK(replayed->read_bytes == 4096);
  CHECK(replay.read_records("/dev/kmsg", 23)->text == "6,2,200,-;NVRM: Xid 79\n");  // a smaller cap keeps the newest
  CHECK(replay.read_records("/dev/other", 100).error() == std::errc::no_such_file_or_directory);
}
