#include "formats/modinfo.h"

#include "test_support/binary_writer.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>
#include <zstd.h>

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

TEST_CASE("compressed modules share one unpacking budget a run: past it a module is not read, and not called damaged") {
  // A module padded to 600 KiB unpacked (zeros compress to almost nothing).
  std::string module = gd::tiny_module({{"version", "550.54.15"}, {"license", "NVIDIA"}});
  module.resize(600 * 1024, '\0');
  std::string packed(ZSTD_compressBound(module.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), module.data(), module.size(), 3));
  gd::FakeHost host;
  for (const char* name : {"/m/a/nvidia.ko.zst", "/m/b/nvidia.ko.zst", "/m/c/nvidia.ko.zst"}) host.file(name, packed);
  gd::UnpackBudget budget{.bytes = 1024 * 1024};
  const auto first = gd::read_modinfo(host, "/m/a/nvidia.ko.zst", budget);
  REQUIRE(first);
  REQUIRE(*first);
  CHECK((*first)->version == "550.54.15");
  CHECK(budget.bytes == 1024 * 1024 - module.size());
  // 424 KiB left: the second would unpack past it, so it is not read (and the budget is spent)...
  CHECK_FALSE(gd::read_modinfo(host, "/m/b/nvidia.ko.zst", budget));
  CHECK(budget.bytes == 0);
  // ...and nothing after it is unpacked at all.
  host.reads.clear();
  CHECK_FALSE(gd::read_modinfo(host, "/m/c/nvidia.ko.zst", budget));
  CHECK(host.reads.count("/m/c/nvidia.ko.zst") == 0);
  // Alone, within its own cap, the same module reads as ever.
  CHECK(gd::read_modinfo(host, "/m/c/nvidia.ko.zst")->version == "550.54.15");
}
