#include "archive/tar_archive.h"

#include <algorithm>
#include <cstring>

namespace gd {

namespace {

constexpr std::size_t k_block = 512;
constexpr std::size_t k_max_path = 4096;

// Header field offsets and widths (POSIX.1-1988 ustar).
struct Field {
  std::size_t offset, width;
};
constexpr Field k_name{0, 100}, k_mode{100, 8}, k_uid{108, 8}, k_gid{116, 8}, k_size{124, 12}, k_mtime{136, 12},
    k_checksum{148, 8}, k_type{156, 1}, k_linkname{157, 100}, k_magic{257, 6}, k_version{263, 2}, k_prefix{345, 155};

std::string octal(std::uint64_t value, std::size_t width) {
  std::string digits(width - 1, '0');
  for (std::size_t i = width - 1; i-- > 0 && value;) {
    digits[i] = static_cast<char>('0' + (value & 7));
    value >>= 3;
  }
  return digits;  // the NUL that ends the field is already in the block
}

void put(std::string& block, Field field, std::string_view text) {
  std::memcpy(block.data() + field.offset, text.data(), std::min(text.size(), field.width));
}

unsigned checksum(std::string_view block) {
  unsigned sum = 0;
  for (std::size_t i = 0; i < k_block; ++i)
    sum += (i >= k_checksum.offset && i < k_checksum.offset + k_checksum.width) ? ' ' : static_cast<unsigned char>(block[i]);
  return sum;
}

std::string header(std::string_view name, char type, std::uint64_t size, std::uint32_t mode, std::string_view link,
                   std::int64_t mtime) {
  std::string block(k_block, '\0');
  put(block, k_name, name);
  put(block, k_mode, octal(mode, k_mode.width));
  put(block, k_uid, octal(0, k_uid.width));
  put(block, k_gid, octal(0, k_gid.width));
  put(block, k_size, octal(size, k_size.width));
  put(block, k_mtime, octal(static_cast<std::uint64_t>(std::max<std::int64_t>(mtime, 0)), k_mtime.width));
  put(block, k_type, std::string_view(&type, 1));
  put(block, k_linkname, link);
  put(block, k_magic, std::string_view("ustar\0", 6));
  put(block, k_version, "00");
  put(block, k_checksum, octal(checksum(block), 7));
  return block;
}

void pad(std::string& out) { out.append((k_block - out.size() % k_block) % k_block, '\0'); }

// One pax record: "LEN key=value\n", where LEN counts itself.
std::string pax_record(std::string_view key, std::string_view value) {
  const std::size_t body = key.size() + value.size() + 3;  // ' ', '=', '\n'
  std::size_t length = body + 1;
  while (std::to_string(length).size() + body != length) ++length;
  return std::to_string(length) + " " + std::string(key) + "=" + std::string(value) + "\n";
}

std::string field_text(std::string_view block, Field field) {
  auto text = block.substr(field.offset, field.width);
  return std::string(text.substr(0, text.find('\0')));
}

bool parse_octal(std::string_view block, Field field, std::uint64_t& value) {
  auto text = block.substr(field.offset, field.width);
  if (!text.empty() && (static_cast<unsigned char>(text[0]) & 0x80)) return false;  // base-256: no snapshot needs it
  value = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  bool any = false;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '7'; ++i, any = true) {
    if (value >> 60) return false;
    value = value * 8 + static_cast<std::uint64_t>(text[i] - '0');
  }
  return any;
}

// "./a//b/" -> "a/b"; empty when the name is absolute or climbs with "..".
std::string clean_name(std::string_view name) {
  if (name.starts_with("/")) return {};
  std::string out;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    const auto part = name.substr(start, end - start);
    if (part == "..") return {};
    if (!part.empty() && part != ".") out += (out.empty() ? "" : "/") + std::string(part);
    start = end + 1;
  }
  return out;
}

void apply_pax(std::string_view records, std::string& path, std::string& link) {
  while (!records.empty()) {
    const auto space = records.find(' ');
    if (space == std::string_view::npos) return;
    std::size_t length = 0;
    for (char c : records.substr(0, space)) {
      if (c < '0' || c > '9' || length > records.size()) return;
      length = length * 10 + static_cast<std::size_t>(c - '0');
    }
    if (length <= space + 1 || length > records.size()) return;
    auto record = records.substr(space + 1, length - space - 2);  // without the newline
    const auto equals = record.find('=');
    if (equals != std::string_view::npos) {
      const auto key = record.substr(0, equals), value = record.substr(equals + 1);
      if (key == "path") path = value;
      if (key == "linkpath") link = value;
    }
    records.remove_prefix(length);
  }
}

}  // namespace

std::string write_tar(const std::vector<TarEntry>& entries, std::int64_t mtime) {
  std::string out;
  for (const auto& entry : entries) {
    const std::string name = entry.type == TarEntry::Type::directory ? entry.path + "/" : entry.path;
    if (name.size() >= k_name.width || entry.target.size() >= k_linkname.width) {
      std::string records = pax_record("path", name);
      if (entry.type == TarEntry::Type::symlink) records += pax_record("linkpath", entry.target);
      out += header("PaxHeader", 'x', records.size(), 0644, "", mtime) + records;
      pad(out);
    }
    const char type = entry.type == TarEntry::Type::directory ? '5' : entry.type == TarEntry::Type::symlink ? '2' : '0';
    const std::uint64_t size = entry.type == TarEntry::Type::file ? entry.content.size() : 0;
    out += header(name, type, size, entry.mode, entry.type == TarEntry::Type::symlink ? entry.target : "", mtime);
    if (entry.type == TarEntry::Type::file) {
      out += entry.content;
      pad(out);
    }
  }
  out.append(2 * k_block, '\0');  // the end-of-archive marker
  return out;
}

Checked<> TarReader::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    switch (m_state) {
      case State::done: return {};  // what follows the end marker (more zeros, as tar pads) is not read
      case State::header: {
        const std::size_t take = std::min(bytes.size(), k_block - m_block.size());
        m_block.append(bytes.substr(0, take));
        bytes.remove_prefix(take);
        m_offset += take;
        if (m_block.size() < k_block) break;
        m_header = std::move(m_block);
        m_block.clear();
        if (auto started = start_entry(); !started) return started;
        break;
      }
      case State::data: {
        const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), m_remaining));
        if (m_into) m_into->append(bytes.substr(0, take));
        bytes.remove_prefix(take);
        m_offset += take;
        m_remaining -= take;
        if (m_remaining == 0)
          if (auto ended = end_entry(); !ended) return ended;
        break;
      }
      case State::padding: {
        const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), m_padding));
        bytes.remove_prefix(take);
        m_offset += take;
        m_padding -= take;
        if (m_padding == 0) m_state = State::header;
        break;
      }
    }
  }
  return {};
}

Checked<> TarReader::start_entry() {
  const std::string_view block = m_header;
  if (block.find_first_not_of('\0') == std::string_view::npos) {  // end-of-archive marker
    m_state = State::done;
    return {};
  }
  std::uint64_t size = 0, mode = 0, stored_sum = 0;
  if (!parse_octal(block, k_size, size) || !parse_octal(block, k_checksum, stored_sum) || stored_sum != checksum(block))
    return problem("a tar header at byte " + std::to_string(m_offset - k_block) + " is damaged (size or checksum does not add up)");
  parse_octal(block, k_mode, mode);
  m_remaining = size;
  m_padding = (k_block - size % k_block) % k_block;
  m_into = nullptr;
  const char type = block[k_type.offset];
  if (type == 'x' || type == 'L' || type == 'K') {
    if (size > 2 * k_max_path + k_block)  // records for a path and a link, no more are read
      return problem("a long-name entry of " + std::to_string(size) + " bytes is more than any name needs");
    m_special.clear();
    m_into = &m_special;
  } else if (type != 'g') {
    std::string name = field_text(block, k_name);
    if (const auto prefix = field_text(block, k_prefix); !prefix.empty() && field_text(block, k_magic).starts_with("ustar"))
      name = prefix + "/" + name;
    std::string link = field_text(block, k_linkname);
    if (!m_long_name.empty()) name = m_long_name;
    if (!m_pax_path.empty()) name = m_pax_path;
    if (!m_long_link.empty()) link = m_long_link;
    if (!m_pax_link.empty()) link = m_pax_link;
    m_pax_path.clear(), m_pax_link.clear(), m_long_name.clear(), m_long_link.clear();
    const bool kept = type == '0' || type == '\0' || type == '7' || type == '5' || type == '2';  // not hard links, devices, FIFOs
    if (kept) {
      if (name.size() > k_max_path || link.size() > k_max_path)
        return problem("a name in the archive is longer than " + std::to_string(k_max_path) + " bytes");
      TarEntry entry;
      entry.path = clean_name(name);
      if (entry.path.empty() && !name.empty() && clean_name(name + "/x") != "x")
        return problem("the archive names a path outside itself (absolute or with \"..\")");
      if (!entry.path.empty()) {  // not "./" itself
        entry.mode = static_cast<std::uint32_t>(mode & 07777);
        entry.type = type == '5' ? TarEntry::Type::directory : type == '2' ? TarEntry::Type::symlink : TarEntry::Type::file;
        if (entry.type == TarEntry::Type::symlink) entry.target = link;
        if (m_entries.size() == k_max_tar_entries)
          return problem("the archive holds more than " + std::to_string(k_max_tar_entries) + " entries");
        m_entries.push_back(std::move(entry));
        if (m_entries.back().type == TarEntry::Type::file) {
          m_into = &m_entries.back().content;
          m_into->reserve(static_cast<std::size_t>(std::min(size, m_max_bytes - std::min(m_max_bytes, m_offset))));
        }
      }
    }
  }
  m_state = State::data;
  if (m_remaining == 0) return end_entry();
  return {};
}

Checked<> TarReader::end_entry() {
  const char type = m_header[k_type.offset];
  if (type == 'x') apply_pax(m_special, m_pax_path, m_pax_link);
  if (type == 'L' || type == 'K')  // GNU long names
    (type == 'L' ? m_long_name : m_long_link) = m_special.substr(0, m_special.find('\0'));
  m_into = nullptr;
  m_state = m_padding ? State::padding : State::header;
  return {};
}

Checked<std::vector<TarEntry>> TarReader::finish() {
  if (m_state == State::data)
    return problem("an entry claims " + std::to_string(m_remaining) + " more bytes than the archive holds (cut short?)");
  if (m_state != State::done) return problem("the archive ends in the middle of a header (cut short?)");
  return std::move(m_entries);
}

Checked<std::vector<TarEntry>> read_tar(std::string_view archive) {
  TarReader reader(archive.size());
  if (auto fed = reader.feed(archive); !fed) return fed.problem();
  return reader.finish();
}

}  // namespace gd
