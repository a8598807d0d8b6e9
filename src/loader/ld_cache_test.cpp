#include "loader/ld_cache.h"

#include "child/child_runner.h"
#include "host/local_fs.h"
#include "test_support/binary_writer.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

namespace {

void put32(std::string& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
}

}  // namespace

TEST_CASE("the system's own ld.so.cache parses and agrees with ldconfig -p") {
  auto bytes = gd::read_local_file("/etc/ld.so.cache", 64 << 20);
  if (!bytes) return;  // a system without a cache (musl, distroless) has nothing to compare
  const auto parsed = gd::parse_ld_cache(*bytes);
  REQUIRE(parsed);
  const auto listed = gd::run_child({"/sbin/ldconfig", "-p"}, std::chrono::seconds(30));
  REQUIRE(listed.exit == 0);
  std::size_t checked = 0;
  for (auto line : gd::lines(listed.output)) {
    if (!gd::contains(line, "(libc6,x86-64") || gd::contains(line, "hwcap")) continue;
    const auto name = std::string(gd::trim(line.substr(0, line.find(" ("))));
    const auto path = std::string(gd::trim(line.substr(line.find("=> ") + 3)));
    const auto found = parsed->lookup(name, 0x0303, {0x0303});
    REQUIRE(found);
    // ldconfig -p lists every entry; the loader takes the first of a name.
    bool first_of_name = true;
    for (std::size_t i = 0; i < parsed->size(); ++i)
      if (const auto entry = parsed->entry(i); entry.key == name) {
        first_of_name = entry.value == path;
        break;
      }
    if (first_of_name) CHECK(*found == path);
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("a lookup matches leading zeros numerically, as glibc does") {
  const auto parsed = gd::parse_ld_cache(gd::ld_cache({{"libfoo.so.01", "/lib/libfoo.so.01", 0x0303}}));
  REQUIRE(parsed);
  CHECK(parsed->lookup("libfoo.so.1", 0x0303, {0x0303}) == "/lib/libfoo.so.01");
  CHECK_FALSE(parsed->lookup("libfoo.so.10", 0x0303, {0x0303}));
}

TEST_CASE("lookup takes the first entry the loader accepts") {
  const auto parsed = gd::parse_ld_cache(gd::ld_cache({
      {"libcuda.so.1", "/usr/local/cuda/compat/libcuda.so.1", 0x0303},
      {"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", 0x0303},
      {"libz.so.1", "/usr/lib32/libz.so.1", 0x0003},
      {"libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", 0x0303},
  }));
  REQUIRE(parsed);
  CHECK(parsed->layout == "new");
  CHECK(parsed->lookup("libcuda.so.1", 0x0303, {0x0303}) == "/usr/local/cuda/compat/libcuda.so.1");
  CHECK(parsed->lookup("libz.so.1", 0x0303, {0x0303}) == "/usr/lib/x86_64-linux-gnu/libz.so.1");
  CHECK(parsed->lookup("libz.so.1", 3, {3, 1}) == "/usr/lib32/libz.so.1");
  CHECK_FALSE(parsed->lookup("libnvidia-ml.so.1", 0x0303, {0x0303}));
}

TEST_CASE("glibc-hwcaps entries of the cache win for the levels this CPU has") {
  // Two entries for one name: the hwcaps one first (as ldconfig sorts them),
  // then the plain one; the extension directory names the subdirectory.
  std::string bytes = gd::ld_cache({{"libfoo.so.1", "/lib/glibc-hwcaps/x86-64-v3/libfoo.so.1", 0x0303},
                                 {"libfoo.so.1", "/lib/libfoo.so.1", 0x0303}});
  const std::uint64_t extension_hwcap = (std::uint64_t{1} << 62) | 0;  // index 0 in the hwcaps names
  for (int i = 0; i < 8; ++i) bytes[48 + 16 + static_cast<std::size_t>(i)] = static_cast<char>(extension_hwcap >> (8 * i));
  while (bytes.size() % 4) bytes += '\0';
  const std::size_t name_offset = bytes.size();
  bytes += std::string("x86-64-v3\0\0\0", 12);
  const std::size_t names_table = bytes.size();
  bytes += std::string(4, '\0');
  put32(bytes, names_table, static_cast<std::uint32_t>(name_offset));
  const std::size_t directory = bytes.size();
  bytes += std::string(8 + 16, '\0');
  put32(bytes, directory, 0xEAA42174u);
  put32(bytes, directory + 4, 1);
  put32(bytes, directory + 8, 1);  // tag: glibc-hwcaps
  put32(bytes, directory + 16, static_cast<std::uint32_t>(names_table));
  put32(bytes, directory + 20, 4);
  put32(bytes, 32, static_cast<std::uint32_t>(directory));
  const auto parsed = gd::parse_ld_cache(bytes);
  REQUIRE(parsed);
  REQUIRE(parsed->hwcaps_names.size() == 1);
  CHECK(parsed->lookup("libfoo.so.1", 0x0303, {0x0303}, {"x86-64-v4", "x86-64-v3", "x86-64-v2"}) ==
        "/lib/glibc-hwcaps/x86-64-v3/libfoo.so.1");
  CHECK(parsed->lookup("libfoo.so.1", 0x0303, {0x0303}, {"x86-64-v2"}) == "/lib/libfoo.so.1");
  CHECK(parsed->lookup("libfoo.so.1", 0x0303, {0x0303}) == "/lib/libfoo.so.1");
}

TEST_CASE("the old layout parses, and a compat file uses its new part") {
  std::string old(16 + 12, '\0');
  std::memcpy(old.data(), "ld.so-1.7.0", 11);
  put32(old, 12, 1);
  put32(old, 16, 0x0303);
  put32(old, 20, 0);
  put32(old, 24, 8);
  old += std::string("libz.so\0/lib/libz.so\0", 21);
  const auto parsed = gd::parse_ld_cache(old);
  REQUIRE(parsed);
  CHECK(parsed->layout == "old");
  CHECK(parsed->lookup("libz.so", 0x0303, {0x0303}) == "/lib/libz.so");
}

TEST_CASE("damaged caches are refused with a reason") {
  const auto good = gd::ld_cache({{"libz.so.1", "/lib/libz.so.1", 0x0303}});
  SUBCASE("unknown magic") { CHECK(gd::parse_ld_cache("hello").error().find("magic") != std::string::npos); }
  SUBCASE("every truncation") {
    for (std::size_t cut = 0; cut < good.size(); ++cut) {
      const auto parsed = gd::parse_ld_cache(good.substr(0, cut));
      CHECK((parsed || !parsed.error().empty()));  // an answer either way, never a crash
    }
  }
  SUBCASE("entry count far beyond the file") {
    std::string bad = good;
    put32(bad, 20, 0x7fffffff);
    CHECK_FALSE(gd::parse_ld_cache(bad));
  }
  SUBCASE("a string offset outside the file") {
    std::string bad = good;
    put32(bad, 48 + 4, 0xfffffff0);
    CHECK_FALSE(gd::parse_ld_cache(bad));
  }
  SUBCASE("a string the file does not end") {
    std::string bad = good;
    bad.back() = 'x';  // the last path loses its NUL
    const auto parsed = gd::parse_ld_cache(bad);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().find("entry 0 has no string") != std::string::npos);
  }
  SUBCASE("another byte order") {
    std::string bad = good;
    bad[28] = 3;
    CHECK(gd::parse_ld_cache(bad).error().find("byte order") != std::string::npos);
  }
}

TEST_CASE("every entry pointing at one 20 MB name: the cache is taken, and the name matches nothing") {
  // Checked from the offsets, never by scanning each string: 50,000 entries
  // naming one huge string cost a pass of arithmetic, and a lookup reads no
  // more than 4096 bytes of any name it visits.
  std::string bytes = gd::ld_cache(std::vector<gd::LdCacheEntrySpec>(50000, {"libz.so.1", "/lib/libz.so.1"}));
  const auto huge = static_cast<std::uint32_t>(bytes.size());
  bytes += std::string(20 << 20, 'x') + '\0';
  for (std::size_t i = 0; i < 49999; ++i) put32(bytes, 48 + 24 * i + 4, huge);  // the last entry keeps its own name
  const auto parsed = gd::parse_ld_cache(bytes);
  REQUIRE(parsed);
  CHECK(parsed->size() == 50000);
  CHECK(parsed->key(0) == std::string(4096, 'x'));  // at most 4096 bytes of a name are read
  CHECK(parsed->entry(49999).key == "libz.so.1");
  CHECK_FALSE(parsed->lookup("libxxx.so.1", 0x0303, {0x0303}));
}

TEST_CASE("a name longer than any real one orders as glibc orders it: the search passes it the same way") {
  // Descending: "y", then 5,000 x's, then libz. glibc compares libz's name
  // with the long one in the middle ('l' < 'x') and turns towards libz.
  const auto parsed = gd::parse_ld_cache(gd::ld_cache(
      {{"y", "/lib/y"}, {std::string(5000, 'x'), "/lib/long"}, {"libz.so.1", "/lib/libz.so.1"}}));
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 3);
  CHECK(parsed->lookup("libz.so.1", 0x0303, {0x0303}) == "/lib/libz.so.1");
  CHECK(parsed->lookup("y", 0x0303, {0x0303}) == "/lib/y");
  // The bound's one cost: a name asked for that is itself past 4096 bytes
  // is never equal to one cut there (glibc compares the whole; no file name
  // a program can ask the loader for is that long).
  CHECK_FALSE(parsed->lookup(std::string(5000, 'x'), 0x0303, {0x0303}));
}

TEST_CASE("cache names compare digit runs as numbers, as glibc does") {
  CHECK(gd::cache_names_equal("libfoo.so.01", "libfoo.so.1"));
  CHECK(gd::cache_names_equal("libcuda.so.1", "libcuda.so.1"));
  CHECK_FALSE(gd::cache_names_equal("libfoo.so.1", "libfoo.so.10"));
  CHECK_FALSE(gd::cache_names_equal("libfoo.so", "libfoo.so.1"));
}

TEST_CASE("cache names order as _dl_cache_libcmp orders them") {
  CHECK(gd::cache_libcmp("libfoo.so.9", "libfoo.so.10") < 0);
  CHECK(gd::cache_libcmp("libfoo.so.10", "libfoo.so.9") > 0);
  CHECK(gd::cache_libcmp("libfoo.so.007", "libfoo.so.7") == 0);
  CHECK(gd::cache_libcmp("libz.so", "libz.so.1") < 0);  // the shorter name ends first
  CHECK(gd::cache_libcmp("libfoo1", "libfoo") > 0);
  CHECK(gd::cache_libcmp("libfoo.so.1", "libfoo.so.a") > 0);  // a digit sorts after any other byte
  CHECK(gd::cache_libcmp("liba.so", "libb.so") < 0);
}

TEST_CASE("lookups search the way glibc does: binary search over ldconfig's order") {
  std::vector<gd::LdCacheEntrySpec> entries;
  for (int i = 0; i < 300; ++i) entries.push_back({"libcase" + std::to_string(i) + ".so.1", "/lib/libcase" + std::to_string(i) + ".so.1"});
  entries.push_back({"libcase7.so.1", "/opt/second/libcase7.so.1"});
  const auto bytes = gd::ld_cache(entries);
  const auto parsed = gd::parse_ld_cache(bytes);
  REQUIRE(parsed);
  for (std::size_t i = 1; i < parsed->size(); ++i)
    CHECK(gd::cache_libcmp(parsed->key(i - 1), parsed->key(i)) >= 0);  // the writer sorts as ldconfig does
  for (int i = 0; i < 300; i += 37) CHECK(parsed->lookup("libcase" + std::to_string(i) + ".so.1", 0x0303, {0x0303}) == "/lib/libcase" + std::to_string(i) + ".so.1");
  CHECK(parsed->lookup("libcase7.so.01", 0x0303, {0x0303}) == "/lib/libcase7.so.1");  // the first of the name, given first
  CHECK_FALSE(parsed->lookup("libcase300.so.1", 0x0303, {0x0303}));

  SUBCASE("a cache out of order misses what glibc's search misses") {
    // The first and last entries swapped by hand: ascending where glibc expects descending.
    auto out_of_order = gd::ld_cache({{"libb.so.1", "/lib/libb.so.1"}, {"liba.so.1", "/lib/liba.so.1"}, {"libc.so.1", "/lib/libc.so.1"}});
    // Entries now libc, libb, liba (descending); make the table ascending: liba, libb, libc.
    std::swap_ranges(out_of_order.begin() + 48, out_of_order.begin() + 48 + 24, out_of_order.begin() + 48 + 48);
    const auto broken = gd::parse_ld_cache(out_of_order);
    REQUIRE(broken);
    CHECK(broken->lookup("libb.so.1", 0x0303, {0x0303}) == "/lib/libb.so.1");  // the middle is found
    CHECK_FALSE(broken->lookup("libc.so.1", 0x0303, {0x0303}));  // glibc turns left of libb, towards liba, and misses it
  }
}
