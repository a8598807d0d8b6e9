#include "util/byte_order.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("fields load in either byte order, at any offset") {
  const std::string bytes("\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9);
  CHECK(gd::load_uint(bytes, 0, 1, true) == 0x01);
  CHECK(gd::load_uint(bytes, 1, 2, true) == 0x0302);
  CHECK(gd::load_uint(bytes, 1, 2, false) == 0x0203);
  CHECK(gd::load_uint(bytes, 1, 4, true) == 0x05040302);  // unaligned
  CHECK(gd::load_uint(bytes, 1, 4, false) == 0x02030405);
  CHECK(gd::load_uint(bytes, 1, 8, true) == 0x0908070605040302ull);
  CHECK(gd::load_uint(bytes, 1, 8, false) == 0x0203040506070809ull);
  CHECK(gd::load_uint(bytes, 0, 3, true) == 0x030201);  // an odd width takes the byte loop
  CHECK(gd::load_uint(bytes, 0, 3, false) == 0x010203);
  CHECK(gd::load_uint(std::string("\xff\xff\xff\xff", 4), 0, 4, true) == 0xffffffffu);  // no sign extension
}
