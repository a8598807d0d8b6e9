// xz and zstd, as compressed kernel modules use them: round trips through
// the libraries' own encoders, and every way a hostile file can end.

#include "archive/xz.h"
#include "archive/zstd.h"

#include <doctest/doctest.h>

#include <lzma.h>
#include <zstd.h>

#include <string>

namespace {

std::string xz_compress(const std::string& data, lzma_check check = LZMA_CHECK_CRC32) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  std::size_t written = 0;
  lzma_easy_buffer_encode(6, check, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()), data.size(),
                          reinterpret_cast<std::uint8_t*>(out.data()), &written, out.size());
  out.resize(written);
  return out;
}

std::string zstd_compress(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 19));
  return out;
}

// Compressible and longer than one 64 KiB output buffer.
std::string sample() {
  std::string data;
  for (int i = 0; i < 20000; ++i) data += "version=550.54.15 line " + std::to_string(i) + '\n';
  return data;
}

}  // namespace

TEST_CASE("xz: the stream's integrity check, as liblzma writes each; nothing for what is no stream header") {
  CHECK(gd::xz_stream_check(xz_compress("x", LZMA_CHECK_NONE)) == 0);
  CHECK(gd::xz_stream_check(xz_compress("x", LZMA_CHECK_CRC32)) == 1);
  CHECK(gd::xz_stream_check(xz_compress("x", LZMA_CHECK_CRC64)) == 4);
  CHECK(gd::xz_stream_check(xz_compress("x", LZMA_CHECK_SHA256)) == 10);
  auto reserved = xz_compress("x", LZMA_CHECK_CRC32);
  reserved[7] = 0x03;  // a check ID no encoder writes today
  CHECK(gd::xz_stream_check(reserved) == 3);
  reserved[7] = 0x11;  // a reserved bit set: not a header this format knows
  CHECK_FALSE(gd::xz_stream_check(reserved));
  CHECK_FALSE(gd::xz_stream_check(xz_compress("x").substr(0, 11)));
  CHECK_FALSE(gd::xz_stream_check("\x7f" "ELF\x02\x01\x01\0\0\0\0\0"));
}

TEST_CASE("xz: round trip, cap, damage, truncation, concatenated streams") {
  const auto data = sample();
  const auto packed = xz_compress(data);
  REQUIRE(packed.size() < data.size());
  CHECK(gd::xz_decompress(packed, data.size()).value() == data);
  CHECK(gd::xz_decompress(packed, data.size() - 1).error() == std::errc::file_too_large);
  CHECK(gd::xz_decompress(packed.substr(0, packed.size() / 2), data.size()).error() == std::errc::invalid_argument);
  CHECK(gd::xz_decompress("not xz at all", 1000).error() == std::errc::invalid_argument);
  CHECK(gd::xz_decompress("", 1000).error() == std::errc::invalid_argument);
  auto flipped = packed;
  flipped[flipped.size() / 2] ^= 0x55;
  CHECK_FALSE(gd::xz_decompress(flipped, data.size()));
  CHECK(gd::xz_decompress(packed + xz_compress("tail"), data.size() + 4).value() == data + "tail");
}

TEST_CASE("zstd: round trip, cap, damage, truncation, concatenated frames") {
  const auto data = sample();
  const auto packed = zstd_compress(data);
  REQUIRE(packed.size() < data.size());
  CHECK(gd::zstd_decompress(packed, data.size()).value() == data);
  CHECK(gd::zstd_decompress(packed, data.size() - 1).error() == std::errc::file_too_large);
  CHECK(gd::zstd_decompress(packed.substr(0, packed.size() / 2), data.size()).error() == std::errc::invalid_argument);
  CHECK(gd::zstd_decompress("not zstd at all", 1000).error() == std::errc::invalid_argument);
  CHECK(gd::zstd_decompress("", 1000).error() == std::errc::invalid_argument);
  CHECK(gd::zstd_decompress(packed + zstd_compress("tail"), data.size() + 4).value() == data + "tail");
}

TEST_CASE("zstd: a frame asking for a window past the limit is refused, not allocated") {
  // Frame header: magic, descriptor with no single-segment flag, window byte 0xA0 = 2^(10+20) bytes (1 GiB).
  const std::string header("\x28\xb5\x2f\xfd\x00\xa0", 6);
  CHECK(gd::zstd_decompress(header + std::string(16, '\0'), 1 << 20).error() == std::errc::file_too_large);
  // 0x88: 2^(10+17), 128 MiB: more than a module's 8 MiB needs, refused too.
  CHECK(gd::zstd_decompress(std::string("\x28\xb5\x2f\xfd\x00\x88", 6) + std::string(16, '\0'), 1 << 20).error() ==
        std::errc::file_too_large);
}

TEST_CASE("xz: a stream whose dictionary is past the limit is refused, not allocated") {
  const std::string data = sample();
  std::string packed = xz_compress(data);
  // The block header (after the 12-byte stream header): its size byte, flags, the LZMA2 filter
  // (id 0x21, one property byte: the dictionary size), padding and a CRC32 of it all.
  const std::size_t block = 12, size = (static_cast<unsigned char>(packed[block]) + 1) * 4;
  const auto filter = packed.find("\x21\x01", block);
  REQUIRE(filter != std::string::npos);
  REQUIRE(filter + 2 < block + size - 4);
  packed[filter + 2] = 31;  // (2 | 1) << (31 / 2 + 11): 192 MiB
  const std::uint32_t crc = lzma_crc32(reinterpret_cast<const std::uint8_t*>(packed.data() + block), size - 4, 0);
  for (int i = 0; i < 4; ++i) packed[block + size - 4 + i] = static_cast<char>(crc >> (8 * i));
  CHECK(gd::xz_decompress(packed, 1 << 20).error() == std::errc::file_too_large);
  // The same stream as it was, with its 8 MiB dictionary (preset 6), unpacks.
  CHECK(gd::xz_decompress(xz_compress(data), 1 << 20).value() == data);
}
