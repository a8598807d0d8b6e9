#pragma once
// /etc/ld.so.cache in its three layouts (old "ld.so-1.7.0", compat, new
// "glibc-ld.so.cache1.1"), checked whole once, then read in place: a lookup
// decodes only the entries glibc's search_cache would visit (glibc
// elf/dl-cache.c, sysdeps/generic/dl-cache.h), so a resolve costs a dozen
// entries per name, not the cache's hundreds decoded into a table first.

#include "util/checked.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

namespace gd {

struct LdCacheEntry {
  std::string_view key;    // SONAME, inside LdCache::bytes
  std::string_view value;  // path, inside LdCache::bytes
  std::int32_t flags = 0;
  std::uint64_t hwcap = 0;
};

// Where the entries lie in LdCache::bytes, as parsing found them: `count`
// entries of `entry_size` bytes from `offset`; their string offsets count from `strings`.
struct LdCacheTable {
  std::size_t offset = 0, entry_size = 0, count = 0, strings = 0;
};

struct LdCache {
  std::string layout;  // "old", "compat" or "new"
  std::shared_ptr<const std::string> bytes;  // the file; entries point into it
  // glibc-hwcaps subdirectory names of the extension section (new format):
  // an extension entry's hwcap low 32 bits index this list.
  std::vector<std::string_view> hwcaps_names;
  LdCacheTable table;

  std::size_t size() const { return table.count; }
  // Entry i, decoded from the file. Parsing checked that its strings lie
  // inside the file and end there; a path longer than 4096 bytes (no real
  // one is) reads as empty, and a lookup passes the entry over.
  LdCacheEntry entry(std::size_t i) const;
  // Its name; for one longer than 4096 bytes, its first 4096, which order it
  // against any name a program asks for as glibc's comparison of the whole would.
  std::string_view key(std::size_t i) const;

  // The first entry for name whose flags the target's loader accepts,
  // preferring one whose flags are exactly the loader's own; a glibc-hwcaps
  // entry for one of the active subdirectories (best first) wins over both.
  std::optional<std::string> lookup(std::string_view name, std::int32_t exact_flags,
                                    const std::vector<std::int32_t>& accepted,
                                    const std::vector<std::string>& active_hwcaps = {}) const;
};

// The cache, or why the file cannot be used.
using LdCacheParse = Checked<LdCache>;

LdCacheParse parse_ld_cache(std::string bytes);


// glibc's _dl_cache_libcmp: digit runs compare as numbers, so "so.01" is "so.1"
// and "so.9" sorts before "so.10"; negative, zero or positive.
int cache_libcmp(std::string_view a, std::string_view b);
bool cache_names_equal(std::string_view a, std::string_view b);


}  // namespace gd
