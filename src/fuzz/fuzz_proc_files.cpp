// libFuzzer target: the /proc and /sys text the kernel-module and container
// layers read — modinfo, mountinfo, the "Key: value" files of
// /proc/driver/nvidia/gpus/*/information, /proc/PID/stat — and dpkg's status.
#include "formats/modinfo.h"
#include "probes/dpkg_status.h"
#include "probes/mountinfo.h"
#include "probes/process_scan.h"
#include "test_support/fake_host.h"
#include "util/text.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gd::parse_modinfo(text);
  gd::parse_mountinfo(text);
  gd::parse_colon_fields(text);
  if (const auto stat = gd::parse_proc_stat(text); stat && stat->command.size() > 200) __builtin_trap();
  gd::FakeHost host;
  host.file(std::string(gd::k_dpkg_status), std::string(text));
  const auto package = gd::find_installed_deb(host, [](std::string_view) { return true; });
  if (package && (package->name.size() > 400 || package->upstream_version.size() > package->version.size() + 400)) __builtin_trap();
  return 0;
}
