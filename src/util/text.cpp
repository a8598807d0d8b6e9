#include "util/text.h"

#include <charconv>
#include <cstdio>

namespace gd {

std::string_view trim(std::string_view text) {
  const char* space = " \t\r\n\v\f";
  const auto first = text.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(separator, start);
    // The last part takes the rest: 60 MB of separators cost 16 MB, not 1 GB.
    const bool last = end == std::string_view::npos || parts.size() + 1 == k_max_parts;
    parts.push_back(text.substr(start, last ? std::string_view::npos : end - start));
    if (last) return parts;
    start = end + 1;
  }
}

std::vector<std::string_view> lines(std::string_view text) {
  auto parts = split(text, '\n');
  if (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

bool contains(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

std::string_view without_bracketed_prefix(std::string_view line, int fields) {
  for (int i = 0; i < fields && line.starts_with('['); ++i) {
    const auto close = line.find("] ");
    if (close == std::string_view::npos) break;
    line.remove_prefix(close + 2);
  }
  return line;
}

std::string concat(std::initializer_list<std::string_view> parts) {
  std::size_t size = 0;
  for (const auto part : parts) size += part.size();
  std::string out;
  out.reserve(size);
  for (const auto part : parts) out.append(part);
  return out;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

std::optional<std::uint32_t> parse_hex(std::string_view text) {
  text = trim(text);
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  if (text.empty() || text.size() > 8) return std::nullopt;
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string first_nonblank_line(std::string_view text) {
  for (const auto line : lines(text))
    if (!trim(line).empty()) return printable(trim(line), 200);
  return {};
}

// The text kept starts where a record does: a line that is not indented.
void keep_newest_records(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return;
  std::size_t start = text.size() - max_bytes;  // the first byte that may stay
  while (start < text.size()) {
    if (text[start - 1] != '\n') {
      const auto line_end = text.find('\n', start);
      start = line_end == std::string::npos ? text.size() : line_end + 1;
    } else if (text[start] == ' ') {
      ++start;  // a dictionary line: on to the next line
    } else {
      break;
    }
  }
  text.erase(0, start);
}

std::map<std::string, std::string> parse_colon_fields(std::string_view text) {
  std::map<std::string, std::string> fields;
  for (auto line : lines(text)) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;
    fields.emplace(std::string(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1))));
  }
  return fields;
}

std::string printable(std::string_view text, std::size_t max_length) {
  std::string out;
  for (unsigned char c : text) {
    if (out.size() >= max_length) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  return out;
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto escape = [&out](unsigned char c) {
    char escaped[5];
    std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
    out += escaped;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9f;
    if (c1) {
      escape(c);
      escape(static_cast<unsigned char>(text[++i]));
    } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      escape(c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

bool looks_like_text(std::string_view text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f) return false;
  return true;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

namespace {

// The length of the valid UTF-8 sequence at text[at], or 0 (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3, low = lead == 0xe0 ? 0xa0 : 0x80, high = lead == 0xed ? 0x9f : 0xbf;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4, low = lead == 0xf0 ? 0x90 : 0x80, high = lead == 0xf4 ? 0x8f : 0xbf;
  else return 0;
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xbf) return 0;
  return length;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    if (const auto length = utf8_sequence(text, at)) {
      out.append(text.substr(at, length));
      at += length;
      continue;
    }
    static constexpr char k_hex[] = "0123456789abcdef";
    const auto value = static_cast<unsigned char>(text[at++]);
    out += "\\x";
    out += k_hex[value >> 4];
    out += k_hex[value & 15];
  }
  return out;
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const auto length = utf8_sequence(text, at);
    if (!length) return false;
    at += length;
  }
  return true;
}

std::size_t flow_nesting(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  char quote = 0;
  bool comment = false;
  for (const char c : text) {
    if (c == '\n') comment = false;
    if (comment) continue;
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '#') comment = true;
    else if (c == '"' || c == '\'') quote = c;
    else if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    else if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  return deepest;
}

}  // namespace gd
