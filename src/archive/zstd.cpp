#include "archive/zstd.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <cerrno>
#include <memory>

namespace gd {

namespace {

// A frame may ask for a window of up to 2 GiB, which the decoder allocates
// before it reads a byte; refuse more than the kernel's own modules use
// (zstd -19 windows are at most 8 MiB) with room to spare.
constexpr int k_max_window_log = 24;  // 16 MiB

struct FreeStream {
  void operator()(ZSTD_DStream* stream) const { ZSTD_freeDStream(stream); }
};

}  // namespace

Result<std::string> zstd_decompress(std::string_view data, std::size_t max_output) {
  std::unique_ptr<ZSTD_DStream, FreeStream> stream(ZSTD_createDStream());
  if (!stream || ZSTD_isError(ZSTD_DCtx_setParameter(stream.get(), ZSTD_d_windowLogMax, k_max_window_log)))
    return errno_code(ENOMEM);
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  std::string out;
  char buffer[64 * 1024];
  bool frame_complete = false;
  for (;;) {
    ZSTD_outBuffer chunk{buffer, sizeof buffer, 0};
    const std::size_t hint = ZSTD_decompressStream(stream.get(), &chunk, &in);  // 0: a frame ended here
    if (ZSTD_isError(hint))
      return errno_code(ZSTD_getErrorCode(hint) == ZSTD_error_frameParameter_windowTooLarge ? EFBIG : EINVAL);
    if (out.size() + chunk.pos > max_output) return errno_code(EFBIG);
    out.append(buffer, chunk.pos);
    frame_complete = hint == 0;
    // All input taken and room left over: the decoder holds nothing more back.
    if (in.pos == in.size && chunk.pos < chunk.size) break;
  }
  if (!frame_complete) return errno_code(EINVAL);  // not zstd, or cut short
  return out;
}

}  // namespace gd
