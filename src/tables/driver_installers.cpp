#include "tables/driver_installers.h"

#include "tables/table_rows.h"

#include <algorithm>

namespace gd {
namespace json = boost::json;

// Iterative, with one backtrack point: linear in practice, no recursion.
bool glob_matches(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p, ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

Checked<> optional_list(const json::object& row, const char* key, std::vector<std::string>& out) {
  if (!row.contains(key)) return {};
  return text_list_field(row, key, out);
}

bool any_word(const std::vector<std::string>& patterns, const std::vector<std::string_view>& words, std::size_t skip) {
  for (std::size_t i = 0; i < words.size(); ++i)
    if (i != skip)
      for (const auto& pattern : patterns)
        if (glob_matches(pattern, words[i])) return true;
  return false;
}

}  // namespace

Checked<> DriverInstallerTable::load(const json::object& table) {
  std::vector<DriverPackageRow> packages;
  std::vector<DriverInstallerRow> installers;
  Checked<> read = RowReader(table, "packages").each([&](const json::object& row) -> Checked<> {
    DriverPackageRow parsed;
    if (auto got = text_field(row, "name", parsed.name); !got) return got;
    if (auto got = text_list_field(row, "match", parsed.match); !got) return got;
    if (auto got = text_field(row, "source", parsed.source); !got) return got;
    if (row.contains("instead")) {
      std::vector<std::string> pair;
      if (auto got = text_list_field(row, "instead", pair); !got || pair.size() != 2)
        return problem("\"instead\" is [\"from\", \"to\"]: what to replace in the name, and with what");
      parsed.instead.emplace(pair[0], pair[1]);
    }
    packages.push_back(std::move(parsed));
    return {};
  });
  if (read)
    read = RowReader(table, "installers").each([&](const json::object& row) -> Checked<> {
      DriverInstallerRow parsed;
      for (auto [key, out] : {std::pair{"name", &parsed.name}, {"command", &parsed.command}, {"source", &parsed.source}})
        if (auto got = text_field(row, key, *out); !got) return got;
      for (auto [key, out] : {std::pair{"with", &parsed.with}, {"exempt", &parsed.exempt}, {"unless", &parsed.unless}})
        if (auto got = optional_list(row, key, *out); !got) return got;
      if (row.contains("add")) {
        std::string flag;
        if (auto got = text_field(row, "add", flag); !got) return got;
        parsed.add = flag;
      }
      installers.push_back(std::move(parsed));
      return {};
    });
  if (!read) return read;
  m_packages = std::move(packages);
  m_installers = std::move(installers);
  return {};
}

const DriverPackageRow* DriverInstallerTable::package(std::string_view word) const {
  word = word.substr(0, word.find_first_of("=/:"));
  if (word.empty()) return nullptr;
  for (const auto& row : m_packages)
    for (const auto& pattern : row.match)
      if (glob_matches(pattern, word)) return &row;
  return nullptr;
}

const DriverInstallerRow* DriverInstallerTable::installer(const std::vector<std::string_view>& words) const {
  for (const auto& row : m_installers)
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (!glob_matches(row.command, words[i])) continue;
      if (!row.with.empty() && !any_word(row.with, words, i)) continue;
      if (any_word(row.exempt, words, i) && !any_word(row.unless, words, i)) continue;
      return &row;
    }
  return nullptr;
}

}  // namespace gd
