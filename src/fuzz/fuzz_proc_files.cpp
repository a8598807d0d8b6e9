// libFuzzer target: the /proc and /sys text the kernel-module and container
// layers read — modinfo, mountinfo (and the mount a path lies on), the
// "Key: value" files of /proc/driver/nvidia/gpus/*/information,
// /proc/PID/stat — dpkg's status, and a systemd unit's words.
#include "formats/modinfo.h"
#include "probes/dpkg_status.h"
#include "probes/mountinfo.h"
#include "probes/process_scan.h"
#include "probes/service_settings.h"
#include "test_support/fake_host.h"
#include "util/text.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gd::parse_modinfo(text);
  const auto mounts = gd::parse_mountinfo(text);
  if (const auto* mount = gd::mount_of(mounts, "/dev/nvidia0"); mount && !(mount->mount_point == "/" || std::string_view("/dev/nvidia0").starts_with(mount->mount_point)))
    __builtin_trap();
  gd::parse_colon_fields(text);
  if (const auto stat = gd::parse_proc_stat(text); stat && stat->command.size() > 200) __builtin_trap();
  gd::FakeHost host;
  host.file(std::string(gd::k_dpkg_status), std::string(text));
  const auto package = gd::find_installed_deb(host, [](std::string_view) { return true; });
  if (package && (package->name.size() > 400 || package->upstream_version.size() > package->version.size() + 400)) __builtin_trap();
  // A unit file: its words unquoted and unescaped are never longer than the line they came from.
  host.file("/usr/lib/systemd/system/fuzz.service", std::string(text));
  const auto settings = gd::read_service_settings(host, "fuzz.service");
  for (const auto& word : settings.exec_words)
    if (word.text.size() > size) __builtin_trap();
  for (const auto& condition : settings.exec_conditions)
    for (const auto& word : condition)
      if (word.size() > size) __builtin_trap();
  (void)settings.command_line();
  return 0;
}
