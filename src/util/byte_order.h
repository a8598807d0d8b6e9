#pragma once
// Unsigned fields of binary formats (ELF, ld.so.cache) in either byte order.
// One load and at most one swap: these run for every entry of a file, where a
// loop over bytes was the larger part of parsing an ld.so.cache.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace gd {

// The width-byte (1, 2, 4 or 8) unsigned field at at; the caller has checked that it lies inside bytes.
inline std::uint64_t load_uint(std::string_view bytes, std::size_t at, std::size_t width, bool little) {
  const char* p = bytes.data() + at;
  const bool swap = little != (std::endian::native == std::endian::little);
  switch (width) {
    case 1: return static_cast<unsigned char>(*p);
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return swap ? __builtin_bswap16(v) : v;
    }
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return swap ? __builtin_bswap32(v) : v;
    }
    case 8: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return swap ? __builtin_bswap64(v) : v;
    }
    default: {
      std::uint64_t value = 0;
      for (std::size_t i = 0; i < width; ++i)
        value = (value << 8) | static_cast<unsigned char>(p[little ? width - 1 - i : i]);
      return value;
    }
  }
}

}  // namespace gd
