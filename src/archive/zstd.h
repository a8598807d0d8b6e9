#pragma once
// zstd (.ko.zst: Ubuntu from 23.10, Arch) in memory, through libzstd.
// Like gzip_decompress, it stops at a cap on its output.

#include "util/result.h"

#include <string>
#include <string_view>

namespace gd {

// The decompressed bytes, or EFBIG when they would pass max_output, or
// EINVAL when data is not zstd (or is cut short).
Result<std::string> zstd_decompress(std::string_view data, std::size_t max_output);

}  // namespace gd
