#include "util/version.h"

#include <cctype>

namespace gd {

std::optional<Version> Version::parse(std::string_view text) {
  Version version;
  version.m_text = std::string(text);
  std::uint64_t value = 0;
  std::size_t digits = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '.') {
      if (digits == 0 || version.m_components.size() == 4) return std::nullopt;
      version.m_components.push_back(static_cast<std::uint32_t>(value));
      value = 0;
      digits = 0;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(text[i])) || digits == 9) return std::nullopt;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
    ++digits;
  }
  return version;
}

std::uint32_t Version::component(std::size_t index) const {
  return index < m_components.size() ? m_components[index] : 0;
}

std::strong_ordering Version::operator<=>(const Version& other) const {
  const std::size_t count = std::max(m_components.size(), other.m_components.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (auto order = component(i) <=> other.component(i); order != 0) return order;
  }
  return std::strong_ordering::equal;
}

std::optional<Version> find_driver_version(std::string_view text) {
  auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t start = 0; start < text.size(); ++start) {
    if (!is_digit(text[start]) || (start > 0 && (is_digit(text[start - 1]) || text[start - 1] == '.')))
      continue;
    std::size_t end = start;
    while (end < text.size() && (is_digit(text[end]) || text[end] == '.')) ++end;
    std::string_view candidate = text.substr(start, end - start);
    while (!candidate.empty() && candidate.back() == '.') candidate.remove_suffix(1);
    auto version = Version::parse(candidate);
    // Driver versions have a major of 3 digits (or more) and 2 or 3 parts.
    if (version && version->size() >= 2 && version->size() <= 3 && version->major() >= 100)
      return version;
    start = end;
  }
  return std::nullopt;
}

}  // namespace gd
