#include "probes/gsp_firmware.h"

#include "util/text.h"

namespace gd {
namespace {

constexpr std::size_t k_max_files = 32;

std::vector<std::string> search_path(Host& host) {
  std::vector<std::string> dirs;
  if (auto custom = host.read_file("/sys/module/firmware_class/parameters/path", 4096)) {
    const auto path = trim(*custom);
    if (path.starts_with('/')) dirs.push_back(std::string(path));
  }
  const std::string release = host.uname().release;
  const bool usable_release = !release.empty() && release.find('/') == std::string::npos;
  if (usable_release) dirs.push_back("/lib/firmware/updates/" + release);
  dirs.push_back("/lib/firmware/updates");
  if (usable_release) dirs.push_back("/lib/firmware/" + release);
  dirs.push_back("/lib/firmware");
  return dirs;
}

}  // namespace

GspFirmware find_gsp_firmware(Host& host, const std::string& version) {
  GspFirmware firmware;
  firmware.version = printable(version, 40);
  if (version.empty() || version.find('/') != std::string::npos || version.starts_with('.')) return firmware;
  for (const auto& dir : search_path(host)) {
    auto names = host.list_dir(dir + "/nvidia/" + version);
    if (!names) continue;
    firmware.directory = dir + "/nvidia/" + firmware.version;
    for (const auto& name : *names)
      if (name.starts_with("gsp_") && name.ends_with(".bin") && firmware.files.size() < k_max_files)
        firmware.files.push_back(printable(name, 64));
    break;
  }
  if (!firmware.directory.value)
    if (auto versions = host.list_dir("/lib/firmware/nvidia"))
      for (const auto& other : *versions)
        if (other != version && firmware.other_versions.size() < k_max_files) firmware.other_versions.push_back(printable(other, 40));
  return firmware;
}

}  // namespace gd
