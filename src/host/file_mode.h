#pragma once
// File modes as the host seam hands them on: a stat mode's type, and the
// octal text a snapshot and a report write permissions in.

#include "host/host.h"

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gd {

FileType file_type_of(mode_t mode);                     // S_IFREG -> regular, S_IFLNK -> symlink, ...
std::string mode_string(std::uint32_t mode);             // 0666 -> "0666"
std::optional<std::uint32_t> parse_mode(std::string_view text);  // "0660" -> 0660; junk -> nullopt

}  // namespace gd
