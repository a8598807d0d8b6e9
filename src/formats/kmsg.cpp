#include "formats/kmsg.h"

#include "util/text.h"

#include <cstdint>
#include <cstdio>

namespace gd {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool printable_or_space(unsigned char c) { return (c >= ' ' && c <= '~') || (c >= '\t' && c <= '\r'); }

// The text unescaped, then written as dmesg writes it.
void append_text(std::string_view text, std::size_t indent, std::string& out) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\\' && i + 3 < text.size() && text[i + 1] == 'x' && hex_digit(text[i + 2]) >= 0 && hex_digit(text[i + 3]) >= 0) {
      c = static_cast<unsigned char>(hex_digit(text[i + 2]) * 16 + hex_digit(text[i + 3]));
      i += 3;
    }
    if (c == '\n') {
      out += '\n';
      if (i + 1 < text.size()) out.append(indent, ' ');
    } else if (printable_or_space(c)) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
}

}  // namespace

std::string kmsg_as_dmesg(std::string_view records) {
  std::string out;
  out.reserve(records.size() + records.size() / 8);
  for (const auto line : lines(records)) {
    if (line.empty() || line.front() == ' ') continue;  // a dictionary line
    const auto header_end = line.find(';');
    if (header_end == std::string_view::npos) continue;
    const auto fields = split(line.substr(0, header_end), ',');
    if (fields.size() < 3) continue;
    const auto usec = parse_int(fields[2]);
    if (!usec || *usec < 0) continue;
    char time[40];
    const int width = std::snprintf(time, sizeof time, "[%5lld.%06lld] ", static_cast<long long>(*usec / 1000000),
                                    static_cast<long long>(*usec % 1000000));
    out.append(time, static_cast<std::size_t>(width));
    append_text(line.substr(header_end + 1), static_cast<std::size_t>(width), out);
    out += '\n';
  }
  return out;
}

}  // namespace gd
