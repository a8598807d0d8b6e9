#pragma once
// gzip in memory, for snapshots packed as .tar.gz. Decompression stops at a
// cap on its output: a few kilobytes of a hostile file may claim gigabytes.

#include "util/result.h"

#include <functional>
#include <string>
#include <string_view>

namespace gd {

std::string gzip_compress(std::string_view data);

// The decompressed bytes, or EFBIG when they would pass max_output, or
// EINVAL when data is not gzip (or is cut short).
Result<std::string> gzip_decompress(std::string_view data, std::size_t max_output);

// The same, handing each decompressed piece to `sink` as it comes, so that
// nothing holds the whole output; a sink that returns false stops the read
// (ECANCELED). Returns the number of bytes produced.
using GzipSink = std::function<bool(std::string_view)>;
Result<std::size_t> gzip_decompress_each(std::string_view data, std::size_t max_output, const GzipSink& sink);

}  // namespace gd
