#pragma once
// The .modinfo section of a kernel module (.ko): NUL-separated "key=value"
// strings (version, license, vermagic, firmware, ...), read through the
// section headers without loading anything. Compressed modules (.ko.xz,
// .ko.zst) are not decompressed: the caller says so instead.

#include "host/host.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct ModInfo {
  std::optional<std::string> version, license, vermagic, srcversion;
  std::vector<std::string> firmware;
};

// nullopt when the file is no ELF module or has no .modinfo section.
std::optional<ModInfo> read_modinfo(Files& files, const std::string& path);
// The fields of a .modinfo section's bytes (exposed for tests and fuzzing).
ModInfo parse_modinfo(std::string_view bytes);

}  // namespace gd
