#include "archive/gzip.h"

#include <zlib.h>

#include <cerrno>

namespace gd {

namespace {

constexpr int k_gzip_window = 15 + 16;  // zlib's way of asking for a gzip header and trailer
constexpr int k_any_window = 15 + 32;   // ... or of accepting zlib and gzip alike

}  // namespace

std::string gzip_compress(std::string_view data) {
  z_stream stream{};
  deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, k_gzip_window, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

Result<std::size_t> gzip_decompress_each(std::string_view data, std::size_t max_output, const GzipSink& sink) {
  z_stream stream{};
  if (inflateInit2(&stream, k_any_window) != Z_OK) return errno_code(ENOMEM);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::size_t total = 0;
  char buffer[64 * 1024];
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t produced = sizeof buffer - stream.avail_out;
    if (total + produced > max_output) {
      inflateEnd(&stream);
      return errno_code(EFBIG);
    }
    total += produced;
    if (produced && !sink(std::string_view(buffer, produced))) {
      inflateEnd(&stream);
      return errno_code(ECANCELED);
    }
    if (status == Z_BUF_ERROR && stream.avail_in == 0) break;  // input ended before the stream did
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) return errno_code(EINVAL);
  return total;
}

Result<std::string> gzip_decompress(std::string_view data, std::size_t max_output) {
  std::string out;
  auto produced = gzip_decompress_each(data, max_output, [&](std::string_view piece) {
    out += piece;
    return true;
  });
  if (!produced) return produced.error();
  return out;
}

}  // namespace gd
