#pragma once
// TOML as container engines' configuration files use it (containerd's
// config.toml and its imports, the NVIDIA Container Toolkit's config.toml):
// tables, dotted and quoted keys, strings, booleans, integers, arrays and
// inline tables. Each value is kept under its full key path; what the
// checks never read (floats, dates) is kept as text only. The reader is
// bounded: a document with more keys or deeper nesting than such files have
// is refused, and so is anything that is not TOML, with the line, since
// the engine refuses it too.

#include "util/checked.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct TomlValue {
  enum class Kind { string, boolean, integer, array, other };
  Kind kind = Kind::other;
  std::string text;                 // a string's value; the source text of anything else
  bool boolean = false;
  std::int64_t integer = 0;
  std::vector<std::string> strings;  // an array's string items (other items are left out)
};

using TomlPath = std::vector<std::string>;

class TomlDocument {
 public:
  // The value at a key path, or null where there is none.
  const TomlValue* find(const TomlPath& path) const;
  std::optional<std::string> string(const TomlPath& path) const;
  std::optional<bool> boolean(const TomlPath& path) const;
  std::optional<std::int64_t> integer(const TomlPath& path) const;

  // The names of the tables directly below prefix ([a.b.x] and [a.b.y] give
  // x and y for a.b), in order, each once.
  std::vector<std::string> tables_below(const TomlPath& prefix) const;

  // Another document's values over this one's, as containerd merges an
  // imported file into the main one.
  void merge(const TomlDocument& over);

  std::size_t size() const { return m_values.size(); }

  // For the reader: a value or a table header at a path.
  void set(TomlPath path, TomlValue value) { m_values[std::move(path)] = std::move(value); }
  void add_table(TomlPath path) { m_tables[std::move(path)] = true; }

 private:
  std::map<TomlPath, TomlValue> m_values;
  std::map<TomlPath, bool> m_tables;  // headers seen, so an empty table is still listed
};

struct TomlBounds {
  std::size_t max_keys = 4096;
  std::size_t max_nesting = 8;      // arrays and inline tables inside each other
  std::size_t max_key_parts = 32;   // in one header or key, and below a header
  std::size_t max_key_bytes = 1024;
};

// The document, or "line N: what is wrong".
Checked<TomlDocument> read_toml(std::string_view text, TomlBounds bounds = {});

}  // namespace gd
