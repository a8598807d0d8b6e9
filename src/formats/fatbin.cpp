#include "formats/fatbin.h"

#include "formats/elf_file.h"
#include "util/version.h"

#include <algorithm>
#include <optional>

namespace gd {
namespace {

constexpr std::uint32_t k_fatbin_magic = 0xBA55ED50;
constexpr std::size_t k_container_header = 16, k_entry_header = 64;
constexpr std::uint16_t k_kind_ptx = 1, k_kind_sass = 2, k_kind_sass_alternate = 0x10;
// Entry flags: 0x2000 is the older compression, 0x8000 the zstd one of CUDA 12.8 and later.
constexpr std::uint64_t k_flags_compressed = 0x2000 | 0x8000;
// sm_90a / compute_90a (arch-specific) and sm_100f / compute_100f (family), as nvcc 13.0 writes them.
constexpr std::uint64_t k_flag_arch_specific = 0x100000, k_flag_family = 0x200000;

// nvcc pads containers apart by a few bytes; a longer run of zeros (a sparse
// file's hole, a hostile section) holds no entry and is not scanned further.
constexpr std::uint64_t k_max_padding = 64 << 10;

std::uint64_t little(std::string_view bytes, std::size_t at, int width) {
  std::uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i) value = value << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return value;
}

// Where the zeros starting at `at` end (8-byte steps, up to end), read in one
// piece; nullopt when they run past k_max_padding.
std::optional<std::uint64_t> past_padding(Files& files, const std::string& path, std::uint64_t at, std::uint64_t end) {
  const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(end - at, k_max_padding));
  auto block = files.read_range(path, at, length);
  if (!block) return std::nullopt;
  for (std::size_t offset = 0; offset + 8 <= block->size(); offset += 8)
    if (little(*block, offset, 8) != 0) return at + offset;
  if (at + block->size() >= end) return end;
  return std::nullopt;
}

}  // namespace

std::string compute_capability_of(int arch) { return std::to_string(arch / 10) + "." + std::to_string(arch % 10); }

FatbinContents read_fatbin(Files& files, const std::string& path) {
  FatbinContents contents;
  for (const auto& section : read_sections(files, path)) {
    if (section.name != ".nv_fatbin" || section.type == 8 /* SHT_NOBITS */) continue;
    contents.has_fatbin = true;
    const std::uint64_t end = section.offset + section.size;
    std::uint64_t at = section.offset;
    while (at + k_container_header <= end) {
      if (contents.containers >= k_max_fatbin_containers) {
        contents.problems.push_back("more than " + std::to_string(k_max_fatbin_containers) + " fat binaries: the rest not read");
        return contents;
      }
      auto header = files.read_range(path, at, k_container_header);
      if (!header || header->size() < k_container_header) break;
      if (little(*header, 0, 4) != k_fatbin_magic) {
        // Containers are padded apart; zeros are skipped, anything else ends the section.
        if (little(*header, 0, 8) == 0) {
          const auto next = past_padding(files, path, at, end);
          if (!next) {
            contents.problems.push_back("more than " + std::to_string(k_max_padding >> 10) + " KiB of zeros at section offset " +
                                        std::to_string(at - section.offset) + ", no padding: the rest not read");
            break;
          }
          at = *next;
          continue;
        }
        contents.problems.push_back("no fat binary header at section offset " + std::to_string(at - section.offset));
        break;
      }
      const std::uint64_t header_size = little(*header, 6, 2), fat_size = little(*header, 8, 8);
      const std::uint64_t container_end = at + header_size + fat_size;
      if (header_size < k_container_header || fat_size > end - at || container_end > end) {
        contents.problems.push_back("a fat binary runs past its section");
        break;
      }
      ++contents.containers;
      std::uint64_t entry_at = at + header_size;
      while (entry_at + k_entry_header <= container_end) {
        if (contents.entries >= k_max_fatbin_entries) {
          contents.problems.push_back("more than " + std::to_string(k_max_fatbin_entries) + " entries: the rest not read");
          return contents;
        }
        auto entry = files.read_range(path, entry_at, k_entry_header);
        if (!entry || entry->size() < k_entry_header) break;
        const auto kind = static_cast<std::uint16_t>(little(*entry, 0, 2));
        const std::uint64_t entry_header = little(*entry, 4, 4), payload = little(*entry, 8, 8);
        const auto minor = static_cast<int>(little(*entry, 24, 2)), major = static_cast<int>(little(*entry, 26, 2));
        const auto arch = static_cast<int>(little(*entry, 28, 4));
        const std::uint64_t flags = little(*entry, 40, 8);
        if (entry_header < k_entry_header || payload > container_end - entry_at || entry_header > container_end - entry_at - payload) {
          contents.problems.push_back("a fat binary entry runs past its container");
          break;
        }
        ++contents.entries;
        if (flags & k_flags_compressed) ++contents.compressed_entries;
        if (arch > 0 && arch < 1000) {
          const bool specific = flags & k_flag_arch_specific, family = !specific && (flags & k_flag_family);
          if (kind == k_kind_sass || kind == k_kind_sass_alternate) {
            (specific ? contents.sass_specific : family ? contents.sass_family : contents.sass).insert(arch);
          } else if (kind == k_kind_ptx) {
            const std::string version = std::to_string(major) + "." + std::to_string(minor);
            auto& known = (specific ? contents.ptx_specific : family ? contents.ptx_family : contents.ptx)[arch];
            if (known.empty() || Version::parse(version) > Version::parse(known)) known = version;
          }
        }
        entry_at += entry_header + payload;
      }
      at = container_end;
    }
  }
  return contents;
}

}  // namespace gd
