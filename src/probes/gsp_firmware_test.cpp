#include "probes/gsp_firmware.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("gsp firmware: found where the kernel's loader looks first; a leftover version is named") {
  gd::FakeHost host;
  host.file("/lib/firmware/nvidia/550.54.15/gsp_ga10x.bin", "elf");
  host.file("/lib/firmware/nvidia/550.54.15/gsp_tu10x.bin", "elf");
  host.file("/lib/firmware/nvidia/550.54.15/README", "not firmware");
  auto found = gd::find_gsp_firmware(host, "550.54.15");
  CHECK(found.directory.value == "/lib/firmware/nvidia/550.54.15");
  CHECK(found.files == std::vector<std::string>{"gsp_ga10x.bin", "gsp_tu10x.bin"});
  CHECK(found.other_versions.empty());

  host.file("/sys/module/firmware_class/parameters/path", "/opt/fw\n");
  host.file("/opt/fw/nvidia/550.54.15/gsp_ga10x.bin", "elf");
  CHECK(gd::find_gsp_firmware(host, "550.54.15").directory.value == "/opt/fw/nvidia/550.54.15");

  const auto missing = gd::find_gsp_firmware(host, "570.86.15");
  CHECK_FALSE(missing.directory);
  CHECK(missing.files.empty());
  CHECK(missing.other_versions == std::vector<std::string>{"550.54.15"});
  CHECK_FALSE(gd::find_gsp_firmware(host, "../../etc").directory);
}
