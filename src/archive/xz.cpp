#include "archive/xz.h"

#include <lzma.h>

#include <cerrno>

namespace gd {

namespace {

// The decoder's own memory limit, its dictionary above all: the kernel's xz
// modules use 1 MiB dictionaries (kmod writes them with --check=crc32
// --lzma2=dict=1MiB), and xz -9's 64 MiB fits; a stream asking for more is refused.
constexpr std::uint64_t k_decoder_memory = 80ull * 1024 * 1024;

}  // namespace

Result<std::string> xz_decompress(std::string_view data, std::size_t max_output) {
  lzma_stream stream = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&stream, k_decoder_memory, LZMA_CONCATENATED) != LZMA_OK) return errno_code(ENOMEM);
  stream.next_in = reinterpret_cast<const std::uint8_t*>(data.data());
  stream.avail_in = data.size();
  std::string out;
  std::uint8_t buffer[64 * 1024];
  lzma_ret status = LZMA_OK;
  while (status == LZMA_OK) {
    stream.next_out = buffer;
    stream.avail_out = sizeof buffer;
    // LZMA_FINISH: all the input is here, so a stream cut short ends in an error, not a wait.
    status = lzma_code(&stream, LZMA_FINISH);
    const std::size_t produced = sizeof buffer - stream.avail_out;
    if (out.size() + produced > max_output) {
      lzma_end(&stream);
      return errno_code(EFBIG);
    }
    out.append(reinterpret_cast<const char*>(buffer), produced);
  }
  lzma_end(&stream);
  if (status != LZMA_STREAM_END) return errno_code(status == LZMA_MEMLIMIT_ERROR ? EFBIG : EINVAL);
  return out;
}

std::optional<int> xz_stream_check(std::string_view header) {
  static constexpr std::string_view magic("\xFD" "7zXZ\0", 6);
  if (header.size() < k_xz_stream_header_size || !header.starts_with(magic)) return std::nullopt;
  // The first flag byte is reserved (zero); so are the second's high bits.
  const auto flags = static_cast<unsigned char>(header[7]);
  if (header[6] != 0 || (flags & 0xF0) != 0) return std::nullopt;
  return flags & 0x0F;
}

}  // namespace gd
