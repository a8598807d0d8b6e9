#include "formats/modinfo.h"

#include <doctest/doctest.h>

using namespace std::string_literals;

TEST_CASE("modinfo: NUL-separated key=value strings, unknown keys and junk skipped") {
  const auto info = gd::parse_modinfo("version=550.54.15\0license=NVIDIA\0junk\0firmware=nvidia/550.54.15/gsp_ga10x.bin\0"
                                      "vermagic=6.1.0-18-amd64 SMP preempt mod_unload modversions \0alias=pci:v000010DEd*"s);
  CHECK(info.version == "550.54.15");
  CHECK(info.license == "NVIDIA");
  CHECK(info.vermagic == "6.1.0-18-amd64 SMP preempt mod_unload modversions ");
  CHECK(info.firmware == std::vector<std::string>{"nvidia/550.54.15/gsp_ga10x.bin"});
  CHECK_FALSE(gd::parse_modinfo("").version);
  CHECK(gd::parse_modinfo("version=1.2"s).version == "1.2");  // the last string need not end in NUL
}
