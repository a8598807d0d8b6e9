#include "probes/cdi_refresh_guard.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

constexpr const char* k_dkms_xz =
    "kernel/fs/ext4/ext4.ko.xz: kernel/fs/jbd2/jbd2.ko.xz kernel/fs/mbcache.ko.xz\n"
    "updates/dkms/nvidia.ko.xz:\n"
    "updates/dkms/nvidia-uvm.ko.xz: updates/dkms/nvidia.ko.xz\n";
constexpr const char* k_debian_current = "updates/dkms/nvidia-current.ko: \nupdates/dkms/nvidia-current-uvm.ko: updates/dkms/nvidia-current.ko\n";

// The three patterns the toolkit's unit has carried (1.18.0, 1.18.1, later), as grep reads them.
constexpr const char* k_plain = "/nvidia.ko";
constexpr const char* k_colon = "/(nvidia|nvidia-current)\\.ko[:]";
constexpr const char* k_any_suffix = "/(nvidia|nvidia-current)\\.ko";

}  // namespace

TEST_CASE("cdi-refresh guard: each pattern the toolkit shipped, against the module names that broke them") {
  CHECK(gd::grep_matches_module_line(k_plain, k_dkms_xz) == true);
  CHECK(gd::grep_matches_module_line(k_plain, k_debian_current) == false);       // #1395
  CHECK(gd::grep_matches_module_line(k_colon, k_debian_current) == true);
  CHECK(gd::grep_matches_module_line(k_colon, k_dkms_xz) == false);              // #1517
  CHECK(gd::grep_matches_module_line(k_any_suffix, k_dkms_xz) == true);
  CHECK(gd::grep_matches_module_line(k_any_suffix, k_debian_current) == true);
  CHECK(gd::grep_matches_module_line(k_any_suffix, "kernel/fs/ext4/ext4.ko:\n") == false);
}

TEST_CASE("cdi-refresh guard: a pattern it cannot judge is unknown, never a verdict") {
  CHECK_FALSE(gd::grep_matches_module_line("\\.ko", k_dkms_xz));        // names no nvidia: other lines would count
  CHECK_FALSE(gd::grep_matches_module_line("/(nvidia", k_dkms_xz));     // no regular expression
  CHECK_FALSE(gd::grep_matches_module_line(std::string(300, 'a') + "nvidia", k_dkms_xz));
  CHECK_FALSE(gd::grep_matches_module_line("nvidia", "nvidia" + std::string(5000, 'x') + "\n"));
  CHECK_FALSE(gd::grep_matches_module_line("(nvidia*)*\\1x", std::string(3000, 'n') + "nvidia\n"));  // a back-reference
}

TEST_CASE("cdi-refresh guard: read from the installed unit, %v the running kernel, escapes undone") {
  gd::FakeHost host;
  host.file("/usr/lib/systemd/system/nvidia-cdi-refresh.service",
            "[Service]\nType=oneshot\nExecCondition=/usr/bin/grep -qE '/(nvidia|nvidia-current)\\\\.ko[:]' /lib/modules/%v/modules.dep\n"
            "ExecStart=/usr/bin/nvidia-ctk cdi generate\n");
  host.file("/usr/lib/systemd/system/nvidia-cdi-refresh.path", "[Path]\n");
  host.link("/etc/systemd/system/multi-user.target.wants/nvidia-cdi-refresh.path", "/usr/lib/systemd/system/nvidia-cdi-refresh.path");
  host.file("/lib/modules/6.12.0-1-amd64/modules.dep", k_dkms_xz);
  gd::ProbeNotes notes;
  auto guard = gd::read_cdi_refresh_guard(host, "6.12.0-1-amd64", notes);
  REQUIRE(guard);
  CHECK(guard->condition == "/usr/bin/grep -qE /(nvidia|nvidia-current)\\.ko[:] /lib/modules/%v/modules.dep");
  CHECK(guard->matches == false);
  CHECK(guard->enabled);

  // A modules.dep past the cap: noted, and the guard not judged.
  host.file("/lib/modules/6.12.0-1-amd64/modules.dep", std::string((8 << 20) + 1, 'x'));
  guard = gd::read_cdi_refresh_guard(host, "6.12.0-1-amd64", notes);
  REQUIRE(guard);
  CHECK_FALSE(guard->matches);
  REQUIRE(notes.unreadable.size() == 1);
  CHECK(notes.unreadable[0].problem.find("8 MiB") != std::string::npos);
  notes.unreadable.clear();

  // A drop-in that clears the condition (the workaround): nothing to judge.
  host.file("/etc/systemd/system/nvidia-cdi-refresh.service.d/override.conf", "[Service]\nExecCondition=\n");
  CHECK_FALSE(gd::read_cdi_refresh_guard(host, "6.12.0-1-amd64", notes));
  CHECK(notes.unreadable.empty());

  // A drop-in whose condition's failure is ignored (`-`): systemd runs the service whatever grep says.
  host.file("/lib/modules/6.12.0-1-amd64/modules.dep", k_dkms_xz);
  host.file("/etc/systemd/system/nvidia-cdi-refresh.service.d/override.conf",
            "[Service]\nExecCondition=\nExecCondition=-/usr/bin/grep -qE '/(nvidia|nvidia-current)\\\\.ko[:]' /lib/modules/%v/modules.dep\n");
  CHECK_FALSE(gd::read_cdi_refresh_guard(host, "6.12.0-1-amd64", notes));
  host.file("/etc/systemd/system/nvidia-cdi-refresh.service.d/override.conf",
            "[Service]\nExecCondition=\nExecCondition=+/usr/bin/grep -qE '/(nvidia|nvidia-current)\\\\.ko[:]' /lib/modules/%v/modules.dep\n");
  guard = gd::read_cdi_refresh_guard(host, "6.12.0-1-amd64", notes);
  REQUIRE(guard);
  CHECK(guard->matches == false);
}
