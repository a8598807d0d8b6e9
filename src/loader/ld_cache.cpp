#include "loader/ld_cache.h"

#include "util/byte_order.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace gd {

namespace {

constexpr std::string_view k_old_magic = "ld.so-1.7.0";
constexpr std::string_view k_new_magic = "glibc-ld.so.cache1.1";
constexpr std::size_t k_old_header = 16, k_old_entry = 12, k_new_header = 48, k_new_entry = 24;
constexpr std::uint64_t k_max_entries = 1 << 20;

std::uint64_t read_le(std::string_view bytes, std::size_t at, std::size_t width) { return load_uint(bytes, at, width, true); }

// A NUL-terminated string at base + offset, inside the file.
// No name or path in a real cache reaches PATH_MAX; bounding the scan keeps
// a crafted cache (every entry pointing at one huge unterminated string)
// linear in its size instead of quadratic.
constexpr std::size_t k_max_string = 4096;

// The string at base + offset up to its NUL, or its first k_max_string
// bytes where it runs longer (`ended` says which); nullopt outside the file.
std::optional<std::string_view> bounded_string_at(std::string_view bytes, std::size_t base, std::uint64_t offset,
                                                  bool& ended) {
  if (offset > bytes.size() || base > bytes.size() - offset) return std::nullopt;
  const auto window = bytes.substr(base + static_cast<std::size_t>(offset), k_max_string);
  const auto end = window.find('\0');
  ended = end != std::string_view::npos;
  return window.substr(0, end);
}

std::optional<std::string_view> string_at(std::string_view bytes, std::size_t base, std::uint64_t offset) {
  bool ended = false;
  const auto text = bounded_string_at(bytes, base, offset, ended);
  return ended ? text : std::nullopt;
}

constexpr std::uint32_t k_extension_magic = 0xEAA42174;
constexpr std::uint32_t k_extension_tag_hwcaps = 1;

// The extension directory (glibc 2.33+): a magic, a count, then sections of
// {tag, flags, file offset, size}; tag 1 lists the glibc-hwcaps names.
std::vector<std::string_view> read_hwcaps_names(std::string_view bytes, std::size_t start) {
  std::vector<std::string_view> names;
  const std::uint64_t directory = read_le(bytes, start + 32, 4);
  if (directory == 0 || directory % 4 != 0 || directory + 8 > bytes.size()) return names;
  if (read_le(bytes, static_cast<std::size_t>(directory), 4) != k_extension_magic) return names;
  const std::uint64_t count = read_le(bytes, static_cast<std::size_t>(directory) + 4, 4);
  if (count > 64 || directory + 8 + count * 16 > bytes.size()) return names;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = static_cast<std::size_t>(directory + 8 + i * 16);
    const std::uint64_t offset = read_le(bytes, at + 8, 4), size = read_le(bytes, at + 12, 4);
    if (read_le(bytes, at, 4) != k_extension_tag_hwcaps || size % 4 != 0 || offset % 4 != 0 || offset > bytes.size() ||
        size > bytes.size() - offset)
      continue;
    for (std::uint64_t k = 0; k < size / 4; ++k) {
      const auto name = string_at(bytes, start, read_le(bytes, static_cast<std::size_t>(offset + k * 4), 4));
      names.push_back(name ? *name : std::string_view());
    }
  }
  return names;
}

// Every entry's strings must start inside the file and end there: an offset
// at or before the file's last NUL byte has a terminator. Checked from the
// offsets alone, so the check is one pass of arithmetic, not a scan of each
// string; lookups then decode only what they visit.
std::optional<std::string> check_entries(std::string_view bytes, std::size_t table, std::size_t entry_size,
                                         std::uint64_t count, std::size_t strings) {
  const std::size_t last_nul = bytes.rfind('\0');
  const bool any_ended = last_nul != std::string_view::npos && strings <= last_nul;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = table + static_cast<std::size_t>(i) * entry_size;
    for (std::size_t field : {std::size_t{4}, std::size_t{8}})
      if (!any_ended || read_le(bytes, at + field, 4) > last_nul - strings)
        return "entry " + std::to_string(i) + " has no string: it points outside the file, or at one the file does not end";
  }
  return std::nullopt;
}

LdCacheParse parse_new(std::string_view bytes, std::size_t start, const char* layout) {
  if (bytes.size() - start < k_new_header) return problem("new-format header is truncated");
  const std::uint64_t nlibs = read_le(bytes, start + 20, 4);
  const auto endian = static_cast<unsigned char>(bytes[start + 28]) & 3;
  if (endian == 1 || endian == 3) return problem("written for another byte order (flags " + std::to_string(endian) + ")");
  if (nlibs > k_max_entries || nlibs * k_new_entry > bytes.size() - start - k_new_header)
    return problem("entry table runs past the end of the file");
  if (auto bad = check_entries(bytes, start + k_new_header, k_new_entry, nlibs, start)) return problem(std::move(*bad));
  LdCache cache;
  cache.layout = layout;
  cache.table = {start + k_new_header, k_new_entry, static_cast<std::size_t>(nlibs), start};
  cache.hwcaps_names = read_hwcaps_names(bytes, start);
  return cache;
}

LdCacheParse parse_old(std::string_view bytes) {
  if (bytes.size() < k_old_header) return problem("old-format header is truncated");
  const std::uint64_t nlibs = read_le(bytes, 12, 4);
  if (nlibs > k_max_entries || nlibs * k_old_entry > bytes.size() - k_old_header)
    return problem("entry table runs past the end of the file");
  const std::size_t table_end = k_old_header + static_cast<std::size_t>(nlibs) * k_old_entry;
  // A compat file embeds the new format, 8-aligned, right after the old table.
  const std::size_t new_start = (table_end + 7) & ~std::size_t{7};
  if (new_start + k_new_magic.size() <= bytes.size() && bytes.substr(new_start, k_new_magic.size()) == k_new_magic)
    return parse_new(bytes, new_start, "compat");
  if (auto bad = check_entries(bytes, k_old_header, k_old_entry, nlibs, table_end)) return problem(std::move(*bad));
  LdCache cache;
  cache.layout = "old";
  cache.table = {k_old_header, k_old_entry, static_cast<std::size_t>(nlibs), table_end};
  return cache;
}

bool is_extension_entry(std::uint64_t hwcap) { return ((hwcap >> 32) & ~std::uint64_t{0x3ff}) == (1u << 30); }

}  // namespace

LdCacheParse parse_ld_cache(std::string data) {
  auto bytes = std::make_shared<const std::string>(std::move(data));
  const std::string_view view(*bytes);
  LdCacheParse parsed = view.starts_with(k_new_magic)   ? parse_new(view, 0, "new")
                        : view.starts_with(k_old_magic) ? parse_old(view)
                                                        : LdCacheParse(problem("not an ld.so.cache (unknown magic)"));
  if (parsed) parsed->bytes = std::move(bytes);
  return parsed;
}

std::string_view LdCache::key(std::size_t i) const {
  const std::string_view view(*bytes);
  bool ended = false;  // a name cut at k_max_string still orders as its whole does
  return bounded_string_at(view, table.strings, read_le(view, table.offset + i * table.entry_size + 4, 4), ended)
      .value_or(std::string_view());
}

LdCacheEntry LdCache::entry(std::size_t i) const {
  const std::string_view view(*bytes);
  const std::size_t at = table.offset + i * table.entry_size;
  return {key(i), string_at(view, table.strings, read_le(view, at + 8, 4)).value_or(std::string_view()),
          static_cast<std::int32_t>(read_le(view, at, 4)), table.entry_size == k_new_entry ? read_le(view, at + 16, 8) : 0};
}

int cache_libcmp(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  auto digit = [](std::string_view s, std::size_t at) { return at < s.size() && s[at] >= '0' && s[at] <= '9'; };
  // glibc compares plain chars, which are signed on x86; the end of a name is its NUL.
  auto byte = [](std::string_view s, std::size_t at) { return at < s.size() ? static_cast<int>(static_cast<signed char>(s[at])) : 0; };
  while (i < a.size()) {
    if (digit(a, i)) {
      if (!digit(b, j)) return 1;
      // Numerically, without overflow: leading zeros dropped, then the longer run is the larger number.
      while (digit(a, i + 1) && a[i] == '0') ++i;
      while (digit(b, j + 1) && b[j] == '0') ++j;
      std::size_t ei = i, ej = j;
      while (digit(a, ei)) ++ei;
      while (digit(b, ej)) ++ej;
      if (ei - i != ej - j) return ei - i < ej - j ? -1 : 1;
      if (const int order = a.substr(i, ei - i).compare(b.substr(j, ej - j)); order != 0) return order < 0 ? -1 : 1;
      i = ei;
      j = ej;
    } else if (digit(b, j)) {
      return -1;
    } else if (byte(a, i) != byte(b, j)) {
      return byte(a, i) - byte(b, j);
    } else {
      ++i;
      ++j;
    }
  }
  return -byte(b, j);
}

bool cache_names_equal(std::string_view a, std::string_view b) { return cache_libcmp(a, b) == 0; }

std::optional<std::string> LdCache::lookup(std::string_view name, std::int32_t exact_flags,
                                           const std::vector<std::int32_t>& accepted,
                                           const std::vector<std::string>& active_hwcaps) const {
  std::optional<std::string> candidate;
  std::optional<std::string> hwcaps_hit;
  std::size_t hwcaps_rank = active_hwcaps.size();
  // glibc's search_cache: a binary search, for ldconfig writes the entries in
  // descending _dl_cache_libcmp order, then back to the first of the name.
  // The same steps on a cache that is out of order miss what glibc misses.
  std::ptrdiff_t left = 0, right = static_cast<std::ptrdiff_t>(table.count) - 1;
  std::size_t start = table.count;
  while (left <= right) {
    const std::ptrdiff_t middle = (left + right) / 2;
    const int order = cache_libcmp(name, key(static_cast<std::size_t>(middle)));
    if (order == 0) {
      start = static_cast<std::size_t>(middle);
      break;
    }
    if (order < 0) left = middle + 1;
    else right = middle - 1;
  }
  while (start < table.count && start > 0 && cache_names_equal(key(start - 1), name)) --start;
  for (std::size_t i = start; i < table.count; ++i) {
    if (!cache_names_equal(key(i), name)) break;  // same-key entries are adjacent
    const auto entry = this->entry(i);
    if (entry.value.empty()) continue;  // a path longer than any real one
    bool ok = false;
    for (auto flags : accepted) ok = ok || entry.flags == flags;
    if (!ok) continue;
    if (is_extension_entry(entry.hwcap)) {
      // Ranked by the subdirectory's place among the levels this CPU has.
      const auto index = static_cast<std::size_t>(entry.hwcap & 0xffffffffu);
      if (index >= hwcaps_names.size()) continue;
      const auto level = std::find(active_hwcaps.begin(), active_hwcaps.end(), hwcaps_names[index]);
      const auto rank = static_cast<std::size_t>(level - active_hwcaps.begin());
      if (rank < hwcaps_rank) {
        hwcaps_rank = rank;
        hwcaps_hit = std::string(entry.value);
      }
      continue;
    }
    if (hwcaps_hit) return hwcaps_hit;  // extension entries sort before the plain one
    if (entry.hwcap != 0) continue;     // a legacy AT_HWCAP entry, ignored since glibc 2.37
    if (entry.flags == exact_flags) return std::string(entry.value);
    if (!candidate) candidate = std::string(entry.value);
  }
  return hwcaps_hit ? hwcaps_hit : candidate;
}

}  // namespace gd
