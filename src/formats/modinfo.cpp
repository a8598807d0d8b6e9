#include "formats/modinfo.h"

#include "formats/elf_file.h"

namespace gd {
namespace {

constexpr std::uint64_t k_max_modinfo = 64 * 1024;  // nvidia.ko's is a few kilobytes
constexpr std::size_t k_max_value = 512;

}  // namespace

ModInfo parse_modinfo(std::string_view bytes) {
  ModInfo info;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const auto end = std::min(bytes.find('\0', at), bytes.size());
    const auto entry = bytes.substr(at, end - at);
    at = end + 1;
    const auto equals = entry.find('=');
    if (equals == std::string_view::npos) continue;
    const auto key = entry.substr(0, equals);
    const std::string value(entry.substr(equals + 1, k_max_value));
    if (key == "version") info.version = value;
    else if (key == "license") info.license = value;
    else if (key == "vermagic") info.vermagic = value;
    else if (key == "srcversion") info.srcversion = value;
    else if (key == "firmware" && info.firmware.size() < 32) info.firmware.push_back(value);
  }
  return info;
}

std::optional<ModInfo> read_modinfo(Files& files, const std::string& path) {
  for (const auto& section : read_sections(files, path)) {
    if (section.name != ".modinfo") continue;
    if (section.size > k_max_modinfo) return std::nullopt;
    auto bytes = files.read_range(path, section.offset, static_cast<std::size_t>(section.size));
    if (!bytes) return std::nullopt;
    return parse_modinfo(*bytes);
  }
  return std::nullopt;
}

}  // namespace gd
