#pragma once
// xz (.ko.xz: Fedora, openSUSE, DKMS with xz) in memory, through liblzma.
// Like gzip_decompress, it stops at a cap on its output.

#include "util/result.h"

#include <string>
#include <string_view>

namespace gd {

// The decompressed bytes, or EFBIG when they would pass max_output, or
// EINVAL when data is not xz (or is cut short).
Result<std::string> xz_decompress(std::string_view data, std::size_t max_output);

}  // namespace gd
