#include "formats/elf_file.h"

#include "util/byte_order.h"

#include <algorithm>
#include <cstring>

namespace gd {

namespace {

constexpr std::size_t k_max_phnum = 4096;
constexpr std::size_t k_max_dynamic = 1 << 20;   // bytes of dynamic section
constexpr std::size_t k_max_strtab = 16 << 20;   // bytes of dynamic string table
constexpr std::size_t k_max_notes = 1 << 20;     // bytes of one PT_NOTE
constexpr std::size_t k_max_note_bytes = 4 << 20;  // PT_NOTE bytes read per file, all segments together
constexpr std::size_t k_max_note_count = 256;      // notes kept per file
constexpr std::size_t k_head_bytes = 1024;         // read first: the ELF header and, in most files, what follows it
constexpr std::size_t k_string_chunk = 256;        // a dynamic string's first read
constexpr std::uint64_t k_string_span = 16 * 1024; // the named strings are read at once when they lie this close
constexpr std::size_t k_max_string = 64 * 1024;  // one RUNPATH or NEEDED string

constexpr std::uint32_t k_pt_load = 1, k_pt_dynamic = 2, k_pt_interp = 3, k_pt_note = 4;
constexpr std::int64_t k_dt_null = 0, k_dt_needed = 1, k_dt_strtab = 5, k_dt_strsz = 10, k_dt_soname = 14,
                       k_dt_rpath = 15, k_dt_runpath = 29, k_dt_flags_1 = 0x6ffffffb;

// Byte-order aware field access over a buffer whose size was checked first.
class Decoder {
 public:
  Decoder(const std::string& bytes, bool little) : m_bytes(bytes), m_little(little) {}
  std::uint64_t u(std::size_t offset, std::size_t width) const { return load_uint(m_bytes, offset, width, m_little); }
  std::size_t size() const { return m_bytes.size(); }

 private:
  const std::string& m_bytes;
  bool m_little;
};

// Parses a run of ELF notes (namesz, descsz, type, name, desc; 4-aligned).
std::vector<ElfNote> parse_notes(const std::string& bytes, bool little) {
  std::vector<ElfNote> notes;
  const Decoder d(bytes, little);
  std::size_t at = 0;
  while (at + 12 <= d.size()) {
    const std::uint64_t namesz = d.u(at, 4), descsz = d.u(at + 4, 4), type = d.u(at + 8, 4);
    const std::size_t name_at = at + 12, desc_at = name_at + static_cast<std::size_t>((namesz + 3) & ~3ull);
    if (namesz > d.size() || descsz > d.size() || desc_at + descsz > d.size()) break;
    ElfNote note;
    note.owner = bytes.substr(name_at, static_cast<std::size_t>(namesz));
    if (!note.owner.empty() && note.owner.back() == '\0') note.owner.pop_back();
    note.type = static_cast<std::uint32_t>(type);
    note.desc = bytes.substr(desc_at, static_cast<std::size_t>(descsz));
    notes.push_back(std::move(note));
    at = desc_at + static_cast<std::size_t>((descsz + 3) & ~3ull);
  }
  return notes;
}

struct Segment {
  std::uint32_t type;
  std::uint64_t offset, vaddr, filesz;
};

class Reader {
 public:
  Reader(Host& host, std::string path) : m_host(host), m_path(std::move(path)) {}

  ElfResult run() {
    auto info = m_host.stat(m_path);
    if (!info) return fail(ElfErrorKind::unreadable, "cannot read: " + info.error().message(), info.error().value());
    m_size = info->size;
    auto header = m_host.read_range(m_path, 0, k_head_bytes);
    if (!header) return fail(ElfErrorKind::unreadable, "cannot read: " + header.error().message(), header.error().value());
    m_head = std::move(*header);
    const std::string& head = m_head;
    if (head.size() < 16 || std::memcmp(head.data(), "\x7f" "ELF", 4) != 0)
      return fail(ElfErrorKind::not_elf, head.size() < 16 ? "file too short to be ELF" : "not an ELF file (no ELF magic)");
    ElfInfo elf;
    const auto cls = static_cast<unsigned char>(head[4]), data = static_cast<unsigned char>(head[5]);
    if ((cls != 1 && cls != 2) || (data != 1 && data != 2) || head[6] != 1)
      return fail(ElfErrorKind::bad_header, "invalid ELF identification (class, byte order or version)");
    elf.bits = cls == 1 ? 32 : 64;
    elf.little_endian = data == 1;
    elf.osabi = static_cast<std::uint8_t>(head[7]);
    const std::size_t header_size = elf.bits == 64 ? 64 : 52;
    if (head.size() < header_size) return fail(ElfErrorKind::not_elf, "file too short for an ELF header");
    m_bits = elf.bits;
    m_little = elf.little_endian;
    const Decoder d(head, m_little);
    elf.type = static_cast<std::uint16_t>(d.u(16, 2));
    elf.machine = static_cast<std::uint16_t>(d.u(18, 2));
    const std::uint64_t phoff = m_bits == 64 ? d.u(32, 8) : d.u(28, 4);
    const std::uint64_t phentsize = d.u(m_bits == 64 ? 54 : 42, 2);
    const std::uint64_t phnum = d.u(m_bits == 64 ? 56 : 44, 2);
    if (elf.type != 2 && elf.type != 3) return fail(ElfErrorKind::bad_header, "not an executable or shared object");
    if (phentsize != (m_bits == 64 ? 56u : 32u)) return fail(ElfErrorKind::bad_header, "unexpected program header size");
    if (phnum > k_max_phnum || !inside(phoff, phnum * phentsize))
      return fail(ElfErrorKind::corrupt, "program headers lie outside the file");
    if (auto read = read_segments(phoff, phnum, phentsize); !read) return read.problem();
    if (auto read = read_interp(elf); !read) return read.problem();
    if (auto read = read_dynamic(elf); !read) return read.problem();
    read_notes(elf);
    return elf;
  }

 private:
  ElfError fail(ElfErrorKind kind, std::string message, int error_number = 0) {
    return ElfError{kind, m_path + ": " + message, error_number};
  }

  // From the head already read where it holds the range (the program
  // headers, PT_INTERP and the notes of most files), else from the file.
  Result<std::string> range(std::uint64_t offset, std::size_t size) {
    if (offset <= m_head.size() && size <= m_head.size() - offset) return m_head.substr(static_cast<std::size_t>(offset), size);
    return m_host.read_range(m_path, offset, size);
  }

  bool inside(std::uint64_t offset, std::uint64_t length) const {
    return offset <= m_size && length <= m_size - offset;
  }

  Checked<void, ElfError> read_segments(std::uint64_t phoff, std::uint64_t phnum, std::uint64_t phentsize) {
    auto table = range(phoff, static_cast<std::size_t>(phnum * phentsize));
    if (!table || table->size() != phnum * phentsize) return fail(ElfErrorKind::corrupt, "cannot read the program headers");
    const Decoder d(*table, m_little);
    m_segments.reserve(static_cast<std::size_t>(phnum));  // bounded by k_max_phnum
    for (std::uint64_t i = 0; i < phnum; ++i) {
      const std::size_t at = static_cast<std::size_t>(i * phentsize);
      Segment segment{};
      segment.type = static_cast<std::uint32_t>(d.u(at, 4));
      if (m_bits == 64) {
        segment.offset = d.u(at + 8, 8);
        segment.vaddr = d.u(at + 16, 8);
        segment.filesz = d.u(at + 32, 8);
      } else {
        segment.offset = d.u(at + 4, 4);
        segment.vaddr = d.u(at + 8, 4);
        segment.filesz = d.u(at + 16, 4);
      }
      m_segments.push_back(segment);
    }
    return {};
  }

  Checked<void, ElfError> read_interp(ElfInfo& elf) {
    for (const auto& segment : m_segments) {
      if (segment.type != k_pt_interp) continue;
      if (!inside(segment.offset, segment.filesz) || segment.filesz > 4096)
        return fail(ElfErrorKind::corrupt, "PT_INTERP lies outside the file");
      auto text = range(segment.offset, static_cast<std::size_t>(segment.filesz));
      if (!text) return fail(ElfErrorKind::corrupt, "cannot read PT_INTERP");
      elf.interpreter = text->substr(0, text->find('\0'));
    }
    return {};
  }

  // A virtual address to a file offset, through the PT_LOAD that holds it.
  std::optional<std::uint64_t> file_offset(std::uint64_t vaddr) const {
    for (const auto& segment : m_segments)
      if (segment.type == k_pt_load && vaddr >= segment.vaddr && vaddr - segment.vaddr < segment.filesz)
        return segment.offset + (vaddr - segment.vaddr);
    return std::nullopt;
  }

  Checked<void, ElfError> read_dynamic(ElfInfo& elf) {
    const Segment* dynamic = nullptr;
    for (const auto& segment : m_segments)
      if (segment.type == k_pt_dynamic) dynamic = &segment;
    if (!dynamic) return {};  // a static executable
    if (!inside(dynamic->offset, dynamic->filesz) || dynamic->filesz > k_max_dynamic)
      return fail(ElfErrorKind::corrupt, "PT_DYNAMIC lies outside the file");
    auto bytes = range(dynamic->offset, static_cast<std::size_t>(dynamic->filesz));
    if (!bytes) return fail(ElfErrorKind::corrupt, "cannot read PT_DYNAMIC");
    const Decoder d(*bytes, m_little);
    const std::size_t entry = m_bits == 64 ? 16 : 8, width = m_bits == 64 ? 8 : 4;
    std::vector<std::pair<std::int64_t, std::uint64_t>> entries;
    entries.reserve(d.size() / entry);  // one allocation: a library's table holds dozens of tags
    std::uint64_t strtab = 0, strsz = 0;
    for (std::size_t at = 0; at + entry <= d.size(); at += entry) {
      const auto tag = static_cast<std::int64_t>(m_bits == 64 ? d.u(at, 8) : static_cast<std::uint32_t>(d.u(at, 4)));
      const std::uint64_t value = d.u(at + width, width);
      if (tag == k_dt_null) break;
      if (tag == k_dt_strtab) strtab = value;
      else if (tag == k_dt_strsz) strsz = value;
      else if (tag == k_dt_flags_1) elf.flags_1 = value;
      else entries.emplace_back(tag, value);
    }
    if (strsz > k_max_strtab) return fail(ElfErrorKind::corrupt, "DT_STRSZ is absurd");
    const auto strtab_offset = file_offset(strtab);
    if (!strtab_offset || !inside(*strtab_offset, strsz)) {
      for (const auto& [tag, value] : entries)
        if (tag == k_dt_needed || tag == k_dt_soname || tag == k_dt_rpath || tag == k_dt_runpath)
          return fail(ElfErrorKind::corrupt, "DT_STRTAB lies outside the file");
      return {};
    }
    // Only the few strings named are read: a large library's DT_STRTAB holds
    // megabytes of symbol names. They usually lie together, so one read of
    // the span that holds them all serves them.
    const auto named = [](std::int64_t tag) { return tag == k_dt_needed || tag == k_dt_soname || tag == k_dt_rpath || tag == k_dt_runpath; };
    std::uint64_t lowest = strsz, highest = 0;
    for (const auto& [tag, value] : entries)
      if (named(tag) && value < strsz) lowest = std::min(lowest, value), highest = std::max(highest, value);
    std::string span;
    if (lowest < strsz && highest - lowest < k_string_span) {
      const auto length = std::min<std::uint64_t>(highest - lowest + k_string_chunk, strsz - lowest);
      if (auto bytes = m_host.read_range(m_path, *strtab_offset + lowest, static_cast<std::size_t>(length))) span = std::move(*bytes);
    }
    for (const auto& [tag, value] : entries) {
      if (!named(tag)) continue;
      if (value >= strsz) return fail(ElfErrorKind::corrupt, "a dynamic string offset lies outside DT_STRTAB");
      bool cut = false;
      std::optional<std::string> text;
      if (const auto at = value - lowest; !span.empty() && at < span.size())
        if (const auto end = span.find('\0', static_cast<std::size_t>(at)); end != std::string::npos)
          text = span.substr(static_cast<std::size_t>(at), static_cast<std::size_t>(end - at));
      if (!text) text = read_string(*strtab_offset + value, strsz - value, cut);
      if (!text) return fail(ElfErrorKind::corrupt, "a dynamic string is not terminated");
      if (cut) elf.limits.push_back("a dynamic string longer than " + std::to_string(k_max_string) + " bytes was cut there");
      if (tag == k_dt_needed) elf.needed.push_back(std::move(*text));
      else if (tag == k_dt_soname) elf.soname = std::move(*text);
      else if (tag == k_dt_rpath) elf.rpath = std::move(*text);
      else elf.runpath = std::move(*text);
    }
    if (elf.runpath) elf.rpath.reset();  // glibc: DT_RUNPATH disables DT_RPATH
    return {};
  }

  // A NUL-terminated string at offset, at most limit bytes long, read in
  // growing pieces. One longer than k_max_string (a crafted RUNPATH of
  // thousands of directories) is cut there, at its last ':', and `cut` says so.
  std::optional<std::string> read_string(std::uint64_t offset, std::uint64_t limit, bool& cut) {
    const bool capped = limit > k_max_string;
    limit = std::min<std::uint64_t>(limit, k_max_string);
    for (std::uint64_t chunk = k_string_chunk;; chunk *= 4) {
      const auto want = static_cast<std::size_t>(std::min(chunk, limit));
      auto bytes = m_host.read_range(m_path, offset, want);
      if (!bytes) return std::nullopt;
      if (const auto end = bytes->find('\0'); end != std::string::npos) return bytes->substr(0, end);
      if (want >= limit && capped && bytes->size() == want) {
        cut = true;
        const auto colon = bytes->rfind(':');
        return bytes->substr(0, colon == std::string::npos ? bytes->size() : colon);
      }
      if (want >= limit || bytes->size() < want) return std::nullopt;
    }
  }

  // Bounded in total, not only per segment: thousands of program headers
  // may all point at one large note.
  void read_notes(ElfInfo& elf) {
    std::size_t total = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> read;
    for (const auto& segment : m_segments) {
      if (segment.type != k_pt_note || !inside(segment.offset, segment.filesz) || segment.filesz > k_max_notes) continue;
      if (std::find(read.begin(), read.end(), std::pair{segment.offset, segment.filesz}) != read.end()) continue;
      if (total + segment.filesz > k_max_note_bytes || elf.notes.size() >= k_max_note_count) {
        elf.limits.push_back("PT_NOTE segments past " + std::to_string(k_max_note_bytes) + " bytes or " +
                             std::to_string(k_max_note_count) + " notes were not read");
        return;
      }
      total += static_cast<std::size_t>(segment.filesz);
      read.emplace_back(segment.offset, segment.filesz);
      auto bytes = range(segment.offset, static_cast<std::size_t>(segment.filesz));
      if (!bytes) continue;
      for (auto& note : parse_notes(*bytes, m_little))
        if (elf.notes.size() < k_max_note_count) elf.notes.push_back(std::move(note));
    }
  }

  Host& m_host;
  std::string m_path;
  std::uint64_t m_size = 0;
  int m_bits = 64;
  bool m_little = true;
  std::vector<Segment> m_segments;
  std::string m_head;
};

}  // namespace

ElfResult read_elf(Host& host, const std::string& path) { return Reader(host, path).run(); }

std::vector<ElfSection> read_sections(Files& files, const std::string& path) {
  auto info = files.stat(path);
  auto header = files.read_range(path, 0, 64);
  if (!info || !header || header->size() < 64 || header->compare(0, 4, "\x7f" "ELF") != 0) return {};
  const bool is64 = (*header)[4] == 2, little = (*header)[5] == 1;
  const Decoder d(*header, little);
  const std::uint64_t shoff = is64 ? d.u(40, 8) : d.u(32, 4);
  const std::uint64_t shentsize = d.u(is64 ? 58 : 46, 2), shnum = d.u(is64 ? 60 : 48, 2), shstrndx = d.u(is64 ? 62 : 50, 2);
  const std::uint64_t size = info->size;
  if (shentsize != (is64 ? 64u : 40u) || shnum == 0 || shnum > 65535 || shstrndx >= shnum || shoff > size ||
      shnum * shentsize > size - shoff)
    return {};
  auto table = files.read_range(path, shoff, static_cast<std::size_t>(shnum * shentsize));
  if (!table || table->size() != shnum * shentsize) return {};
  const Decoder t(*table, little);
  auto field = [&](std::uint64_t index, std::size_t offset64, std::size_t offset32) {
    const std::size_t at = static_cast<std::size_t>(index * shentsize);
    return is64 ? t.u(at + offset64, 8) : t.u(at + offset32, 4);
  };
  const std::uint64_t names_offset = field(shstrndx, 24, 16), names_size = field(shstrndx, 32, 20);
  if (names_offset > size || names_size > size - names_offset || names_size > k_max_strtab) return {};
  auto names = files.read_range(path, names_offset, static_cast<std::size_t>(names_size));
  if (!names) return {};
  std::vector<ElfSection> sections;
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const auto name_at = static_cast<std::size_t>(t.u(static_cast<std::size_t>(i * shentsize), 4));
    const std::uint64_t offset = field(i, 24, 16), length = field(i, 32, 20);
    const auto type = static_cast<std::uint32_t>(t.u(static_cast<std::size_t>(i * shentsize) + 4, 4));
    // A section that claims bytes past the end of the file is left out.
    const bool nobits = type == 8;  // SHT_NOBITS (.bss) occupies no file bytes
    if (name_at >= names->size() || (!nobits && (offset > size || length > size - offset))) continue;
    const auto end = names->find('\0', name_at);
    sections.push_back({names->substr(name_at, end == std::string::npos ? std::string::npos : end - name_at), type, offset,
                        length, little});
  }
  return sections;
}

std::vector<ElfNote> read_section_notes(Files& files, const std::string& path, const std::string& section) {
  for (const auto& found : read_sections(files, path)) {
    if (found.name != section) continue;
    if (found.size > k_max_notes) return {};
    auto bytes = files.read_range(path, found.offset, static_cast<std::size_t>(found.size));
    return bytes ? parse_notes(*bytes, found.little_endian) : std::vector<ElfNote>{};
  }
  return {};
}

}  // namespace gd
