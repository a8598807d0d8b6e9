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

// Reads an archive fed in pieces as they are decompressed, so that only the
// entries' contents are ever held, never the archive beside them. Hard links,
// devices and FIFOs are skipped (a snapshot holds none); a header that does
// not add up, a name that climbs out, or more than k_max_tar_entries entries
// end the read with a problem.
class TarReader {
 public:
  // At most max_bytes will be fed (the decompressor's cap): a file's bytes
  // are reserved once, up to what can still come, instead of growing.
  explicit TarReader(std::uint64_t max_bytes) : m_max_bytes(max_bytes) {}
  Checked<> feed(std::string_view bytes);
  // The entries, or why the archive is cut short. Call once.
  Checked<std::vector<TarEntry>> finish();

 private:
  enum class State { header, data, padding, done };
  Checked<> start_entry();
  Checked<> end_entry();

  State m_state = State::header;
  std::string m_block;                  // the header being gathered
  std::string m_header;                 // the last complete header
  std::string m_special;                // a pax or GNU long-name entry's data
  std::string* m_into = nullptr;        // where the current entry's data goes (null: skipped)
  std::uint64_t m_remaining = 0;        // data bytes still to come
  std::uint64_t m_padding = 0;          // padding bytes still to skip
  std::uint64_t m_offset = 0;           // bytes fed so far
  std::uint64_t m_max_bytes;
  std::string m_pax_path, m_pax_link, m_long_name, m_long_link;
  std::vector<TarEntry> m_entries;
};

// The whole archive at once.
Checked<std::vector<TarEntry>> read_tar(std::string_view archive);

}  // namespace gd
