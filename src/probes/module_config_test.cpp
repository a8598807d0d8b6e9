#include "probes/module_config.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("modprobe.d: blacklists, install overrides and options of the watched modules, with their files") {
  gd::FakeHost host;
  host.file("/etc/modprobe.d/nvidia.conf", "# comment\noptions nvidia NVreg_OpenRmEnableUnsupportedGpus=1  # trailing\n");
  host.file("/etc/modprobe.d/blacklist.conf", "blacklist nouveau\nblacklist snd_hda_intel\ninstall nvidia-drm /bin/false\n");
  host.file("/usr/lib/modprobe.d/other.txt", "blacklist nvidia\n");  // not a .conf: ignored
  const auto facts = gd::read_modprobe_config(host);
  REQUIRE(facts.blacklisted.size() == 2);
  CHECK(facts.blacklisted[0].module == "nouveau");
  CHECK(facts.blacklisted[0].source == "/etc/modprobe.d/blacklist.conf");
  CHECK(facts.blacklisted[1].module == "nvidia-drm");
  CHECK(facts.blacklisted[1].how == "install /bin/false");
  REQUIRE(facts.options.size() == 1);
  CHECK(facts.options[0].options == "NVreg_OpenRmEnableUnsupportedGpus=1");
}

TEST_CASE("installed modules: found in DKMS's directory; damaged ones say why, other names are not modules") {
  gd::FakeHost host;
  host.file("/lib/modules/6.1.0-18-amd64/updates/dkms/nvidia.ko.xz", "compressed bytes");
  host.file("/lib/modules/6.1.0-18-amd64/updates/dkms/nvidia.ko.bak", "a copy depmod ignores");
  host.file("/lib/modules/6.1.0-18-amd64/kernel/drivers/video/nvidia.ko", "not an ELF file");
  const auto found = gd::find_installed_modules(host, "6.1.0-18-amd64");
  REQUIRE(found.size() == 2);
  CHECK(found[0].path == "/lib/modules/6.1.0-18-amd64/updates/dkms/nvidia.ko.xz");
  CHECK(found[0].compression == "xz");
  CHECK_FALSE(found[0].version);
  CHECK(found[0].modinfo_problem == "not xz data, or damaged or cut short");
  CHECK_FALSE(found[0].xz_check);  // no stream header: no claim about its check
  CHECK_FALSE(found[1].compression);
  CHECK_FALSE(found[1].version);  // unreadable: no claim about it
  CHECK(found[1].modinfo_problem == "not an ELF file with section headers");
  CHECK(gd::find_installed_modules(host, "../../etc").empty());
}

TEST_CASE("installed modules: an .xz module's integrity check, from its stream header") {
  gd::FakeHost host;
  const std::string header("\xFD" "7zXZ\0\0", 7);
  for (const auto& [flag, check] : {std::pair{'\x01', gd::XzCheck::crc32}, {'\x04', gd::XzCheck::crc64}, {'\x0A', gd::XzCheck::sha256},
                                   {'\x00', gd::XzCheck::none}, {'\x02', gd::XzCheck::other}}) {
    host.file("/lib/modules/6.12.0-1-amd64/updates/dkms/nvidia.ko.xz", header + flag + std::string("\x12\x34\x56\x78 rest", 9));
    const auto found = gd::find_installed_modules(host, "6.12.0-1-amd64");
    REQUIRE(found.size() == 1);
    CHECK(found[0].xz_check == check);
  }
  host.file("/lib/modules/6.12.0-1-amd64/updates/dkms/nvidia.ko.xz", "");
  host.file("/lib/modules/6.12.0-1-amd64/updates/dkms/nvidia.ko", header + '\x04' + "0123");  // not named .xz: not read as one
  const auto found = gd::find_installed_modules(host, "6.12.0-1-amd64");
  REQUIRE(found.size() == 2);
  for (const auto& module : found) CHECK_FALSE(module.xz_check);
}
