// Snapshot writes never leave the output directory: a symlink in the way is
// refused, not followed, and stored links resolve inside the snapshot.

#include "snapshot/write_root.h"

#include "host/live_host.h"
#include "snapshot/recording_host.h"
#include "snapshot/replay_host.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <filesystem>

namespace gd {

TEST_CASE("contained_link_target keeps relative targets, re-roots absolute ones, and clamps climbs") {
  CHECK(contained_link_target("/usr/lib/libcuda.so.1", "libcuda.so.550.54.15") == "libcuda.so.550.54.15");
  CHECK(contained_link_target("/sys/bus/pci/devices/x/driver", "../../../bus/pci/drivers/nvidia") ==
        "../../../bus/pci/drivers/nvidia");
  CHECK(contained_link_target("/usr/lib64", "/usr/lib/x86_64-linux-gnu") == "../usr/lib/x86_64-linux-gnu");
  CHECK(contained_link_target("/lib", "/usr/lib") == "usr/lib");
  CHECK(contained_link_target("/etc/alternatives/x", "/") == "../..");
  CHECK(contained_link_target("/a/b/link", "../../../../../etc/passwd") == "../../etc/passwd");
  CHECK(contained_link_target("/a/link", "/x/../../../etc") == "../etc");
}

TEST_CASE("WriteRoot refuses to write through a symlink, wherever it stands") {
  TempDir dir;
  dir.mkdir("outside");
  dir.mkdir("out/root");
  dir.symlink("out/root/usr", dir / "outside");  // planted: an absolute link to the outside
  auto root = WriteRoot::open(dir / "out/root");
  REQUIRE(root.has_value());
  CHECK_FALSE(root->write_file("/usr/x", "data"));
  CHECK_FALSE(root->make_dirs("/usr/lib/deeper"));
  CHECK_FALSE(root->make_link("/usr/l", "/etc"));
  CHECK(std::filesystem::is_empty(dir / "outside"));
  dir.symlink("out/root/file", dir / "outside/target");
  CHECK_FALSE(root->write_file("/file", "data"));  // the last component, too
  CHECK_FALSE(std::filesystem::exists(dir / "outside/target"));
  CHECK(root->write_file("/etc/ok", "fine"));
  CHECK(root->regular_size("/etc/ok") == 4);
  // The output directory itself must not be a symlink.
  dir.symlink("out-link", dir / "out/root");
  CHECK_FALSE(WriteRoot::open(dir / "out-link").has_value());
}

TEST_CASE("a recorded absolute symlink is stored inside the snapshot, and replays as it was") {
  TempDir system;
  system.write("usr/lib/x86_64-linux-gnu/libcuda.so.1", "elf");
  system.symlink("usr/lib64", "/usr/lib/x86_64-linux-gnu");
  LiveHost live(system.path());
  TempDir out;
  std::filesystem::create_directories(out / "root");
  RecordingHost recorder(live, out.path());
  CHECK(recorder.read_file("/usr/lib64/libcuda.so.1", 100) == "elf");
  REQUIRE(recorder.finish("test").has_value());
  CHECK(std::filesystem::read_symlink(out / "root/usr/lib64") == "../usr/lib/x86_64-linux-gnu");
  ReplayHost replay(out.path());
  CHECK(replay.read_link("/usr/lib64") == "/usr/lib/x86_64-linux-gnu");
  CHECK(replay.read_file("/usr/lib64/libcuda.so.1", 100) == "elf");
}

}  // namespace gd
