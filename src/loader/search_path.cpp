#include "loader/search_path.h"

#include <cctype>
#include <unordered_set>

namespace gd {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Matches NAME or {NAME} at text[at] (just after '$'); returns the length consumed.
std::size_t match_token(std::string_view text, std::size_t at, std::string_view name) {
  if (text.substr(at).starts_with("{" + std::string(name) + "}")) return name.size() + 2;
  if (text.substr(at).starts_with(name) && (at + name.size() == text.size() || !is_name_char(text[at + name.size()])))
    return name.size();
  return 0;
}

}  // namespace

std::optional<std::string> expand_dst(std::string_view text, const DstValues& values) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      out += text[i];
      continue;
    }
    if (const auto n = match_token(text, i + 1, "ORIGIN")) {
      if (!values.origin) return std::nullopt;
      out += *values.origin;
      i += n;
    } else if (const auto n = match_token(text, i + 1, "LIB")) {
      out += values.lib;
      i += n;
    } else if (const auto n = match_token(text, i + 1, "PLATFORM")) {
      out += values.platform;
      i += n;
    } else {
      out += '$';  // an unknown token is copied literally
    }
  }
  return out;
}

std::vector<PathElement> parse_path_list(std::string_view list, PathListKind kind, const DstValues& values) {
  std::vector<PathElement> elements;
  std::unordered_set<std::string> seen;  // glibc drops repeats; hashed, so 30,000 elements stay linear
  std::size_t start = 0;
  while (start <= list.size() && elements.size() < k_max_path_elements) {
    std::size_t end = start;
    while (end < list.size() && list[end] != ':' && !(kind == PathListKind::ld_library_path && list[end] == ';')) ++end;
    const auto raw = list.substr(start, end - start);
    if (auto expanded = expand_dst(raw, values)) {
      std::string dir = *expanded;
      while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
      if (seen.insert(dir).second) elements.push_back({dir, std::string(raw.substr(0, 4096))});
    }
    start = end + 1;
  }
  return elements;
}

}  // namespace gd
