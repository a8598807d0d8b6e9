#pragma once
// xz (.ko.xz: Fedora, openSUSE, DKMS with xz) in memory, through liblzma.
// Like gzip_decompress, it stops at a cap on its output.

#include "util/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace gd {

// The decompressed bytes, or EFBIG when they would pass max_output, or
// EINVAL when data is not xz (or is cut short).
Result<std::string> xz_decompress(std::string_view data, std::size_t max_output);

// The integrity check an .xz stream carries, by its ID (the .xz file format
// 1.x, 2.1.1.2 Stream Flags: the low 4 bits of the header's eighth byte):
// 0 none, 1 CRC32, 4 CRC64, 10 SHA-256. Nothing where the bytes (the
// file's first 12 are enough) are not an .xz stream header.
std::optional<int> xz_stream_check(std::string_view header);
inline constexpr std::size_t k_xz_stream_header_size = 12;

}  // namespace gd
