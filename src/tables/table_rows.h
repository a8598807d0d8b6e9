#pragma once
// Reading a reference table's rows (rules/tables/*.json) into typed rows:
// each list row by row, stopping at the first bad one with its number, and
// the field checks every table shares.

#include "util/checked.h"
#include "util/json_fields.h"
#include "util/text.h"
#include "util/version.h"

#include <boost/json.hpp>

#include <string>

namespace gd {

// Reads the rows of one list, stopping at the first bad one with its number.
class RowReader {
 public:
  RowReader(const boost::json::object& table, const char* list) : m_list(list) {
    const auto* value = table.if_contains(list);
    if (value && value->is_array()) m_rows = &value->get_array();
  }

  // parse(row) answers Checked<>.
  template <class Parse>
  Checked<> each(Parse parse) {
    if (!m_rows) return problem(concat({"needs a \"", m_list, "\" list"}));
    std::size_t index = 0;
    for (const auto& value : *m_rows) {
      ++index;
      if (!value.is_object()) return row_problem(index, "is not an object");
      if (auto read = parse(value.get_object()); !read) return row_problem(index, read.error());
    }
    return {};
  }

 private:
  Problem row_problem(std::size_t index, const std::string& what) const {
    return problem(concat({m_list, " row ", std::to_string(index), ": ", what}));
  }
  const char* m_list;
  const boost::json::array* m_rows = nullptr;
};

// A field that must be a version ("12.4", "550.54.14").
inline Checked<> version_field(const boost::json::object& row, const char* key, Version& out) {
  const std::string text = string_field(row, key);
  auto parsed = Version::parse(text);
  if (!parsed) return problem(std::string("\"") + key + "\" must be a version like 12.4, not \"" + text + "\"");
  out = std::move(*parsed);
  return {};
}

inline Checked<> number_field(const boost::json::object& row, const char* key, int low, int high, int& out) {
  const auto value = int_field(row, key);
  if (!value || *value < low || *value > high)
    return problem(std::string("\"") + key + "\" must be a number from " + std::to_string(low) + " to " + std::to_string(high));
  out = static_cast<int>(*value);
  return {};
}

inline Checked<> text_field(const boost::json::object& row, const char* key, std::string& out) {
  out = string_field(row, key);
  if (out.empty()) return problem(std::string("needs a non-empty \"") + key + "\"");
  return {};
}

// A field that must be a list of non-empty texts.
inline Checked<> text_list_field(const boost::json::object& row, const char* key, std::vector<std::string>& out) {
  const auto* list = array_field(row, key);
  if (!list) return problem(std::string("needs \"") + key + "\" (a list of text)");
  for (const auto& item : *list) {
    if (!item.is_string() || item.get_string().empty()) return problem(std::string("\"") + key + "\" holds something that is not text");
    out.emplace_back(item.get_string());
  }
  return {};
}

}  // namespace gd
