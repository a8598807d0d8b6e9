#pragma once
// gzip in memory, for snapshots packed as .tar.gz. Decompression stops at a
// cap on its output: a few kilobytes of a hostile file may claim gigabytes.

#include "util/result.h"

#include <string>
#include <string_view>

namespace gd {

std::string gzip_compress(std::string_view data);

// The decompressed bytes, or EFBIG when they would pass max_output, or
// EINVAL when data is not gzip (or is cut short).
Result<std::string> gzip_decompress(std::string_view data, std::size_t max_output);

}  // namespace gd
