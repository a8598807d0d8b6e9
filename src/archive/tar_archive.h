#pragma once
// POSIX tar (ustar, with pax headers for long names), written and read in
// memory: a snapshot travels as one .tar.gz that `tar xzf` also unpacks.
// Reading never touches the disk, so an archive's "../" or absolute names
// cannot place anything anywhere; they are refused.

#include "util/checked.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct TarEntry {
  enum class Type { file, directory, symlink };
  std::string path;  // relative, '/'-separated, never "..": "gpudoctor-snapshot/root/proc/version"
  Type type = Type::file;
  std::string content;  // a file's bytes
  std::string target;   // a symlink's target
  std::uint32_t mode = 0644;
};

std::string write_tar(const std::vector<TarEntry>& entries, std::int64_t mtime);

inline constexpr std::size_t k_max_tar_entries = 200'000;

// Hard links, devices and FIFOs are skipped (a snapshot holds none); a
// header that does not add up, a name that climbs out, or more than
// k_max_tar_entries entries end the read with a problem.
Checked<std::vector<TarEntry>> read_tar(std::string_view archive);

}  // namespace gd
