#include "redact/redactor.h"

#include "util/path.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace gd {

namespace {

constexpr std::string_view k_uuid = "GPU or MIG UUID", k_user = "user name", k_host = "host name", k_serial = "serial number",
                           k_part = "board part number", k_mac = "MAC address", k_ipv4 = "IPv4 address",
                           k_ipv6 = "IPv6 address", k_credential = "credential";

// ASCII, as the C locale gpudoctor runs in has it, without a call per byte:
// a snapshot redacts every byte it reads, modules of tens of MB included.
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_name_char(char c) { return is_alnum(c) || c == '.' || c == '_' || c == '-'; }
bool is_host_char(char c) { return is_alnum(c) || c == '_' || c == '-'; }

// Mixes one byte into a 64-bit state (splitmix64's finaliser): the UUID
// placeholders are a function of the prefix read so far, so a prefix maps
// to the prefix of its UUID's placeholder.
std::uint64_t mix(std::uint64_t state, unsigned char byte) {
  std::uint64_t z = state ^ (byte + 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string uuid_placeholder(std::string_view hex_run) {
  std::string out(hex_run);
  std::uint64_t state = 0x6770756463746f72ULL;  // "gpudctor"
  for (char& c : out) {
    state = mix(state, static_cast<unsigned char>(std::tolower(static_cast<unsigned char>(c))));
    if (c == '-') continue;
    const char digit = "0123456789abcdef"[state >> 60];
    c = std::isupper(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(digit)) : digit;
  }
  return out;
}

// Replaces every occurrence of from (same length as to) that stands alone:
// the characters around it are not part of a longer name.
std::size_t replace_token(std::string& text, std::string_view from, std::string_view to, bool (*inside)(char)) {
  std::size_t count = 0;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
    const bool starts = at == 0 || !inside(text[at - 1]);
    const bool ends = at + from.size() == text.size() || !inside(text[at + from.size()]);
    if (!starts || !ends) continue;
    text.replace(at, from.size(), to);
    ++count;
  }
  return count;
}

bool looks_like_version_file(std::string_view path) {
  const auto name = base_name(path);
  return path.find(".dist-info/") != std::string_view::npos || path.find(".egg-info/") != std::string_view::npos ||
         name.find("version") != std::string_view::npos || name.find("VERSION") != std::string_view::npos;
}

}  // namespace

std::string Redactor::name_placeholder(std::string_view prefix, std::size_t length, std::size_t index) const {
  for (const auto head : {prefix, prefix.substr(0, 1)}) {
    const std::string number = std::to_string(index);
    if (head.size() + number.size() <= length)
      return std::string(head) + std::string(length - head.size() - number.size(), '0') + number;
  }
  return {};
}

void Redactor::add_user(std::string_view name, std::string_view home_parent) {
  if (name.empty() || name == "root" || name == "." || name == ".." || name.find('/') != std::string_view::npos) return;
  for (const auto& user : m_users)
    if (user.original == name && user.parent == home_parent) return;
  std::string placeholder;
  for (const auto& user : m_users)
    if (user.original == name) placeholder = user.placeholder;  // the same name under another parent
  if (placeholder.empty()) placeholder = name_placeholder("user", name.size(), m_users.size() + 1);
  if (placeholder.empty()) {
    m_unredactable.emplace(k_user);
    return;
  }
  m_users.push_back({std::string(name), placeholder, std::string(home_parent)});
}

void Redactor::add_host_name(std::string_view name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
  if (name.empty() || name == "localhost") return;
  for (const auto& host : m_hosts)
    if (host.original == name) return;
  std::string placeholder = name_placeholder("host", name.size(), m_hosts.size() + 1);
  if (placeholder.empty()) {
    m_unredactable.emplace(k_host);
    return;
  }
  m_hosts.push_back({std::string(name), placeholder, ""});
}

std::string Redactor::masked(std::string_view kind, std::string_view value) {
  auto& table = m_masks[std::string(kind)];
  if (const auto found = table.find(std::string(value)); found != table.end()) return found->second;
  std::string out(value);
  for (char& c : out)
    if (is_alnum(c)) c = '0';
  const std::string number = std::to_string(table.size() + 1);
  std::size_t digit = number.size();
  for (std::size_t i = out.size(); i-- > 0 && digit > 0;)
    if (out[i] == '0') out[i] = number[--digit];
  m_seen[std::string(kind)].emplace(value);
  table.emplace(std::string(value), out);
  return out;
}

void Redactor::replace_keyed(std::string& text) {
  struct Key {
    std::string_view key, kind;
  };
  // "SerialNumber:" is how the kernel logs a USB device's serial.
  static constexpr std::array<Key, 6> keys{{{"Serial Number", k_serial}, {"SerialNumber", k_serial}, {"\"serial\"", k_serial},
                                            {"Board Part Number", k_part}, {"GPU Part Number", k_part},
                                            {"\"board_part_number\"", k_part}}};
  for (const auto& [key, kind] : keys) {
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      std::size_t i = at + key.size();
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i == text.size() || text[i] != ':') continue;
      ++i;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '"')) ++i;
      std::size_t end = i;
      while (end < text.size() && text[end] != '\n' && text[end] != '"' && text[end] != ',') ++end;
      while (end > i && text[end - 1] == ' ') --end;
      const std::string value = text.substr(i, end - i);
      if (value.empty() || value.find("N/A") != std::string::npos || value.find_first_not_of("0") == std::string::npos) continue;
      text.replace(i, value.size(), masked(kind, value));
    }
  }
}

// A credential keeps its length, every byte of it replaced: punctuation
// would tell too much of a short password.
std::string Redactor::masked_credential(std::string_view value) {
  std::string out = masked(k_credential, value);
  for (char& c : out)
    if (!is_alnum(c)) c = '0';
  return out;
}

// Engines' configuration and proxies hold credentials: the user and password
// of a URL (https://user:secret@registry), and a quoted value after a key
// such as password = "..." (containerd's registry auth) or "auth": "..."
// (a Docker config). Unquoted words are left alone: a log that says
// "token" names no secret.
void Redactor::replace_credentials(std::string& text) {
  for (std::size_t at = text.find("://"); at != std::string::npos; at = text.find("://", at + 3)) {
    const std::size_t start = at + 3;
    std::size_t end = start;
    while (end < text.size() && text[end] != '@' && text[end] != '/' && text[end] != '"' && text[end] != '\'' &&
           static_cast<unsigned char>(text[end]) > ' ')
      ++end;
    if (end == text.size() || text[end] != '@' || end == start) continue;
    text.replace(start, end - start, masked_credential(text.substr(start, end - start)));
  }
  static constexpr std::array<std::string_view, 9> keys{"password", "passwd", "auth", "identitytoken", "identity_token",
                                                         "token", "secret", "client_secret", "registrytoken"};
  for (const auto key : keys) {
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + key.size())) {
      if (at > 0 && (is_alnum(text[at - 1]) || text[at - 1] == '_' || text[at - 1] == '-')) continue;
      std::size_t i = at + key.size();
      if (i < text.size() && (text[i] == '"' || text[i] == '\'')) ++i;  // the key's closing quote
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i == text.size() || (text[i] != '=' && text[i] != ':')) continue;
      ++i;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i == text.size() || (text[i] != '"' && text[i] != '\'')) continue;
      const char quote = text[i++];
      std::size_t end = i;
      while (end < text.size() && text[end] != quote && text[end] != '\n') ++end;
      if (end == text.size() || text[end] != quote || end == i) continue;
      text.replace(i, end - i, masked_credential(text.substr(i, end - i)));
    }
  }
}

void Redactor::replace_uuids(std::string& text, bool remember) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    // "GPU-<hex>" and "MIG-<hex>" (a prefix counts: CUDA_VISIBLE_DEVICES
    // takes one), or a bare 8-4-4-4-12 UUID.
    std::size_t start = std::string::npos;
    if ((text[at] == 'G' || text[at] == 'M') && (text.compare(at, 4, "GPU-") == 0 || text.compare(at, 4, "MIG-") == 0) &&
        (at == 0 || !is_alnum(text[at - 1])))
      start = at + 4;
    else if (is_hex(text[at]) && (at == 0 || (!is_alnum(text[at - 1]) && text[at - 1] != '-')) && at + 36 <= text.size())
      start = at;
    if (start == std::string::npos) continue;
    std::size_t end = start;
    bool any_hex = false;
    for (; end < text.size() && (is_hex(text[end]) || text[end] == '-'); ++end) any_hex = any_hex || is_hex(text[end]);
    // A run that is no UUID is skipped whole: a megabyte of hex digits costs one pass.
    const std::size_t skip_to = std::max(at, end > 0 ? end - 1 : 0);
    if (!any_hex || (end < text.size() && is_alnum(text[end]))) {
      at = skip_to;
      continue;
    }
    const std::string_view run(text.data() + start, end - start);
    if (start == at && (run.size() != 36 || run[8] != '-' || run[13] != '-' || run[18] != '-' || run[23] != '-')) {
      at = skip_to;  // bare: only the exact UUID shape
      continue;
    }
    std::string lowered(run);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    m_seen[std::string(k_uuid)].insert(lowered.size() >= 36 ? lowered.substr(0, 36) : lowered);
    const std::string placeholder = uuid_placeholder(run);
    if (remember && run.size() == 36) m_uuids_in_paths.emplace(placeholder, run);
    text.replace(start, run.size(), placeholder);
    at = end;
  }
}

void Redactor::replace_macs(std::string& text) {
  for (std::size_t at = 0; at + 17 <= text.size(); ++at) {
    if (at > 0 && (is_hex(text[at - 1]) || text[at - 1] == ':')) continue;
    bool shape = true;
    for (std::size_t i = 0; i < 17 && shape; ++i) shape = (i % 3 == 2) ? text[at + i] == ':' : is_hex(text[at + i]);
    if (!shape || (at + 17 < text.size() && (is_hex(text[at + 17]) || text[at + 17] == ':'))) continue;
    const std::string value = text.substr(at, 17);
    if (value == "00:00:00:00:00:00" || value == "ff:ff:ff:ff:ff:ff") continue;
    text.replace(at, 17, masked(k_mac, value));
    at += 16;
  }
}

void Redactor::replace_ipv4(std::string& text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!is_digit(text[at]) || (at > 0 && is_name_char(text[at - 1]))) continue;
    std::size_t i = at;
    int octets = 0;
    bool valid = true;
    std::uint32_t first = 0;
    while (octets < 4 && valid) {
      const std::size_t begin = i;
      std::uint32_t value = 0;
      while (i < text.size() && is_digit(text[i]) && i - begin < 4) value = value * 10 + static_cast<std::uint32_t>(text[i++] - '0');
      const std::size_t digits = i - begin;
      valid = digits >= 1 && digits <= 3 && value <= 255 && !(digits > 1 && text[begin] == '0');
      if (octets == 0) first = value;
      ++octets;
      if (octets < 4) valid = valid && i < text.size() && text[i++] == '.';
    }
    if (!valid || (i < text.size() && is_name_char(text[i]))) continue;
    const std::string value = text.substr(at, i - at);
    if (first == 0 || first == 127 || value == "255.255.255.255") continue;  // not anyone's address
    text.replace(at, value.size(), masked(k_ipv4, value));
    at = i;
  }
}

// fd00:10:20::23, fe80::1ff:fe23:4567:890a, 2001:db8:0:0:0:0:0:1: groups of
// one to four hex digits, eight of them or fewer around one "::", standing
// alone (std::string and a clock's 12:34:56 are no addresses).
void Redactor::replace_ipv6(std::string& text) {
  const auto address_char = [](char c) { return is_hex(c) || c == ':'; };
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!address_char(text[at]) || (at > 0 && (is_name_char(text[at - 1]) || text[at - 1] == ':'))) continue;
    std::size_t end = at;
    while (end < text.size() && address_char(text[end])) ++end;
    const std::string_view run(text.data() + at, end - at);
    const bool bounded = end == text.size() || !(is_name_char(text[end]) || text[end] == '.');
    std::size_t groups = 0, colons = 0, longest = 0, digits = 0;
    bool valid = bounded;
    for (std::size_t i = 0; i < run.size() && valid; ++i) {
      if (run[i] == ':') {
        ++colons;
        if (digits) ++groups;
        longest = std::max(longest, digits);
        digits = 0;
      } else {
        ++digits;
      }
    }
    if (digits) ++groups;
    longest = std::max(longest, digits);
    const auto compressed = run.find("::");
    const bool one_gap = compressed != std::string_view::npos && run.find("::", compressed + 1) == std::string_view::npos;
    valid = valid && longest <= 4 && colons >= 2 && run.find(":::") == std::string_view::npos &&
            (one_gap ? groups <= 7 : groups == 8 && colons == 7 && run.front() != ':' && run.back() != ':');
    if (!valid || run == "::" || run == "::1") {
      at = end;
      continue;
    }
    text.replace(at, run.size(), masked(k_ipv6, run));
    at = end;
  }
}

void Redactor::replace_identities(std::string& text) {
  for (const auto& user : m_users) {
    const std::string from = user.parent + "/" + user.original, to = user.parent + "/" + user.placeholder;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
      if (at + from.size() < text.size() && is_name_char(text[at + from.size()])) continue;
      text.replace(at, from.size(), to);
      m_seen[std::string(k_user)].insert(user.original);
    }
  }
  // A host name that cannot be an ordinary word ("node17", "gpu-a.example")
  // is replaced wherever it stands alone; a plain word ("nvidia", a Jetson's
  // default) only where it is known to be the host name.
  for (const auto& host : m_hosts) {
    const bool distinctive = host.original.size() >= 4 && host.original.find_first_of("0123456789-.") != std::string::npos;
    if (distinctive && replace_token(text, host.original, host.placeholder, is_host_char) > 0)
      m_seen[std::string(k_host)].insert(host.original);
  }
}

// PCI VPD (PCI Local Bus 3.0 appendix I, /sys/bus/pci/devices/*/vpd): large
// resources (tag byte with bit 7 set, 16-bit little-endian length): 0x82 the
// identifier string, 0x90 VPD-R and 0x91 VPD-W, whose data are fields of a
// two-letter keyword, a length byte and the value; 0x78 ends it. What is
// serial-like: SN, the asset tag YA, and vendor fields that carry an identity
// (a ConnectX's VU repeats the serial, its V3 is a UUID in hex).
void Redactor::replace_vpd_serials(std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> values;  // offset, length of each field value
  std::vector<std::string> serials;
  for (std::size_t at = 0; at + 3 <= text.size();) {
    const auto tag = static_cast<unsigned char>(text[at]);
    if (!(tag & 0x80)) break;  // a small resource: only the end tag follows in VPD
    const std::size_t length = static_cast<unsigned char>(text[at + 1]) | static_cast<std::size_t>(static_cast<unsigned char>(text[at + 2])) << 8;
    const std::size_t data = at + 3, end = std::min(text.size(), data + length);
    if (tag == 0x90 || tag == 0x91)
      for (std::size_t field = data; field + 3 <= end;) {
        const std::string keyword = text.substr(field, 2);
        const std::size_t size = static_cast<unsigned char>(text[field + 2]), value = field + 3;
        if (value + size > end) break;
        const std::string content = text.substr(value, size);
        const bool hex_identity = size >= 16 && std::all_of(content.begin(), content.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == '-'; });
        if (keyword == "SN" || keyword == "YA") serials.push_back(content);
        if (keyword == "SN" || keyword == "YA" || ((keyword[0] == 'V' || keyword[0] == 'Y') && hex_identity)) values.emplace_back(value, size);
        field = value + size;
      }
    at = data + length;
  }
  for (const auto& [offset, size] : values) {
    const std::string value = text.substr(offset, size);
    text.replace(offset, size, masked(k_serial, value));
  }
  // The serial where a vendor field repeats it (ConnectX: VU = serial + model + ...).
  for (const auto& serial : serials) {
    if (serial.size() < 6) continue;
    const std::string placeholder = masked(k_serial, serial);
    for (std::size_t at = text.find(serial); at != std::string::npos; at = text.find(serial, at + serial.size()))
      text.replace(at, serial.size(), placeholder);
  }
}

namespace {

// xz, zstd and gzip streams (compressed kernel modules): their bytes show no
// text, so nothing identifying can be found in them, and a "match" by chance
// in 40 MB of compressed bytes (an IPv6-looking run turns up a few times)
// would corrupt the module the replay then reads.
// Only a file named so and starting so: a piece of another file may begin
// with the same two bytes by chance.
bool is_compressed_stream(std::string_view bytes, std::string_view name) {
  return (name.ends_with(".xz") && bytes.starts_with(std::string_view("\xfd" "7zXZ\0", 6))) ||
         (name.ends_with(".zst") && bytes.starts_with("\x28\xb5\x2f\xfd")) || (name.ends_with(".gz") && bytes.starts_with("\x1f\x8b"));
}

}  // namespace

std::string Redactor::redact(std::string_view input, TextOrigin origin, std::string_view origin_name) {
  return redact_text(input, origin, origin_name, false);
}

std::string Redactor::redact_text(std::string_view input, TextOrigin origin, std::string_view origin_name, bool remember_uuids) {
  if (origin == TextOrigin::file && is_compressed_stream(input, origin_name)) return std::string(input);
  std::string text(input);
  if (origin == TextOrigin::file && origin_name.ends_with("/vpd")) replace_vpd_serials(text);
  replace_keyed(text);
  replace_credentials(text);
  replace_uuids(text, remember_uuids);
  replace_macs(text);
  const bool versions = (origin == TextOrigin::variable && origin_name.find("VERSION") != std::string_view::npos) ||
                        (origin == TextOrigin::file && looks_like_version_file(origin_name));
  if (!versions) replace_ipv4(text);
  replace_ipv6(text);
  if (origin == TextOrigin::file && (origin_name == "/etc/hostname" || origin_name == "/proc/sys/kernel/hostname"))
    for (const auto& host : m_hosts)
      if (replace_token(text, host.original, host.placeholder, is_host_char) > 0) m_seen[std::string(k_host)].insert(host.original);
  replace_identities(text);
  return text;
}

std::string Redactor::redact_variable(std::string_view name, std::string_view value) {
  if (name == "USER" || name == "LOGNAME" || name == "SUDO_USER" || name == "USERNAME")
    for (const auto& user : m_users)
      if (user.original == value) {
        m_seen[std::string(k_user)].insert(user.original);
        return user.placeholder;
      }
  if (name == "HOSTNAME")
    for (const auto& host : m_hosts)
      if (host.original == value) {
        m_seen[std::string(k_host)].insert(host.original);
        return host.placeholder;
      }
  return redact(value, TextOrigin::variable, name);
}

std::string Redactor::redact_path(std::string_view path, std::string_view origin_name) {
  return redact_text(path, TextOrigin::file, origin_name, true);
}

std::string Redactor::original_path(std::string_view redacted_path) const {
  std::string path(redacted_path);
  // Only placeholders of whole UUIDs were remembered (bare, or after GPU- or MIG-): look up each window of that size.
  if (!m_uuids_in_paths.empty())
    for (std::size_t at = 0; at + 36 <= path.size(); ++at) {
      if (!is_hex(path[at]) || path[at + 8] != '-') continue;
      const auto found = m_uuids_in_paths.find(std::string_view(path).substr(at, 36));
      if (found == m_uuids_in_paths.end()) continue;
      path.replace(at, 36, found->second);
      at += 35;
    }
  for (const auto& user : m_users) {
    const std::string from = user.parent + "/" + user.placeholder, to = user.parent + "/" + user.original;
    for (std::size_t at = path.find(from); at != std::string::npos; at = path.find(from, at + 1))
      if (at + from.size() == path.size() || !is_name_char(path[at + from.size()])) path.replace(at, from.size(), to);
  }
  for (const auto& host : m_hosts) replace_token(path, host.placeholder, host.original, is_host_char);
  return path;
}

std::vector<std::string> Redactor::summary() const {
  std::vector<std::string> out;
  for (const auto kind : {k_uuid, k_user, k_host, k_serial, k_part, k_mac, k_ipv4, k_ipv6, k_credential}) {
    const auto found = m_seen.find(kind);
    if (found == m_seen.end() || found->second.empty()) continue;
    // A UUID prefix (CUDA_VISIBLE_DEVICES=GPU-8f3a) is the same GPU as its UUID.
    const auto count = std::count_if(found->second.begin(), found->second.end(), [&](const std::string& value) {
      const auto next = found->second.upper_bound(value);
      return kind != k_uuid || next == found->second.end() || !next->starts_with(value);
    });
    std::string noun(kind);
    if (count > 1) noun += kind == k_mac || kind == k_ipv4 || kind == k_ipv6 ? "es" : "s";
    out.push_back(std::to_string(count) + " " + noun);
  }
  for (const auto& kind : m_unredactable) out.push_back("a " + kind + " too short for a placeholder was kept");
  return out;
}

}  // namespace gd
