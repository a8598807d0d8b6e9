#include "formats/toml_config.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gd {

const TomlValue* TomlDocument::find(const TomlPath& path) const {
  const auto found = m_values.find(path);
  return found == m_values.end() ? nullptr : &found->second;
}

std::optional<std::string> TomlDocument::string(const TomlPath& path) const {
  const auto* value = find(path);
  if (!value || value->kind != TomlValue::Kind::string) return std::nullopt;
  return value->text;
}

std::optional<bool> TomlDocument::boolean(const TomlPath& path) const {
  const auto* value = find(path);
  if (!value || value->kind != TomlValue::Kind::boolean) return std::nullopt;
  return value->boolean;
}

std::optional<std::int64_t> TomlDocument::integer(const TomlPath& path) const {
  const auto* value = find(path);
  if (!value || value->kind != TomlValue::Kind::integer) return std::nullopt;
  return value->integer;
}

namespace {

bool starts_with_path(const TomlPath& path, const TomlPath& prefix) {
  return path.size() > prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

}  // namespace

std::vector<std::string> TomlDocument::tables_below(const TomlPath& prefix) const {
  std::set<std::string> names;
  for (const auto& [path, _] : m_tables)
    if (starts_with_path(path, prefix)) names.insert(path[prefix.size()]);
  // [a.b] x.y = 1 makes a.b.x a table without a header of its own.
  for (const auto& [path, _] : m_values)
    if (path.size() > prefix.size() + 1 && starts_with_path(path, prefix)) names.insert(path[prefix.size()]);
  return {names.begin(), names.end()};
}

void TomlDocument::merge(const TomlDocument& over) {
  for (const auto& [path, value] : over.m_values) m_values[path] = value;
  for (const auto& [path, seen] : over.m_tables) m_tables[path] = seen;
}

namespace {

struct Failure {
  std::string message;
};

// A cursor over the whole text: multi-line strings and arrays cross lines.
class Reader {
 public:
  Reader(std::string_view text, TomlBounds bounds) : m_text(text), m_bounds(bounds) {}

  TomlDocument read() {
    take("\xEF\xBB\xBF");  // a byte order mark, which the engines' TOML libraries skip
    TomlPath table;
    std::map<TomlPath, std::size_t> array_tables;
    while (true) {
      skip_blank_lines();
      if (at_end()) break;
      if (peek() == '[') {
        const bool array = m_text.substr(m_at).starts_with("[[");
        m_at += array ? 2 : 1;
        skip_spaces();
        table = key_path();
        skip_spaces();
        if (!take(array ? "]]" : "]")) fail(array ? "expected ]] after the table name" : "expected ] after the table name");
        if (array) table.push_back("#" + std::to_string(array_tables[table]++));
        m_document.add_table(table);
      } else {
        TomlPath path = table;
        for (auto& part : key_path()) path.push_back(std::move(part));
        skip_spaces();
        if (!take("=")) fail("expected = after a key");
        skip_spaces();
        assign(std::move(path), 0);
      }
      end_of_line();
    }
    return std::move(m_document);
  }

 private:
  [[noreturn]] void fail(std::string_view what) const {
    throw Failure{"line " + std::to_string(m_line) + ": " + std::string(what)};
  }

  bool at_end() const { return m_at >= m_text.size(); }
  char peek() const { return at_end() ? '\0' : m_text[m_at]; }
  bool take(std::string_view token) {
    if (!m_text.substr(m_at).starts_with(token)) return false;
    m_at += token.size();
    return true;
  }
  void skip_spaces() {
    while (peek() == ' ' || peek() == '\t') ++m_at;
  }
  void skip_comment() {
    if (peek() != '#') return;
    while (!at_end() && peek() != '\n') ++m_at;
  }
  bool take_newline() {
    if (take("\r\n") || take("\n")) {
      ++m_line;
      return true;
    }
    return false;
  }
  // Blanks, comments and newlines: between statements, and between the items of arrays and inline tables.
  void skip_blank_lines() {
    while (true) {
      skip_spaces();
      skip_comment();
      if (!take_newline()) return;
    }
  }
  void end_of_line() {
    skip_spaces();
    skip_comment();
    if (!at_end() && !take_newline()) fail("unexpected text after a value");
  }

  static bool bare_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

  // A key path is bounded in parts and bytes: each value stores its whole
  // path, so one long header over thousands of keys would cost their product.
  TomlPath key_path() {
    TomlPath path;
    std::size_t bytes = 0;
    while (true) {
      if (path.size() == m_bounds.max_key_parts) fail("a key of more than " + std::to_string(m_bounds.max_key_parts) + " parts");
      skip_spaces();
      if (peek() == '"') {
        path.push_back(basic_string());
      } else if (peek() == '\'') {
        path.push_back(literal_string());
      } else {
        const std::size_t start = m_at;
        while (bare_key_char(peek())) ++m_at;
        if (m_at == start) fail("expected a key");
        path.emplace_back(m_text.substr(start, m_at - start));
      }
      bytes += path.back().size();
      if (bytes > m_bounds.max_key_bytes) fail("a key longer than " + std::to_string(m_bounds.max_key_bytes) + " bytes");
      skip_spaces();
      if (!take(".")) return path;
    }
  }

  void assign(TomlPath path, std::size_t depth) {
    if (depth > m_bounds.max_nesting) fail("arrays or inline tables nested more than " + std::to_string(m_bounds.max_nesting) + " deep");
    if (peek() == '{') {
      ++m_at;
      m_document.add_table(path);
      skip_blank_lines();
      if (take("}")) return;
      while (true) {
        TomlPath inner = path;
        for (auto& part : key_path()) inner.push_back(std::move(part));
        skip_spaces();
        if (!take("=")) fail("expected = in an inline table");
        skip_spaces();
        assign(std::move(inner), depth + 1);
        skip_blank_lines();
        if (take("}")) return;
        if (!take(",")) fail("expected , or } in an inline table");
        skip_blank_lines();
        if (take("}")) return;  // TOML 1.1 allows a trailing comma
      }
    }
    TomlValue value = scalar_or_array(path, depth);
    if (m_document.size() >= m_bounds.max_keys) fail("more than " + std::to_string(m_bounds.max_keys) + " keys");
    m_document.set(std::move(path), std::move(value));
  }

  TomlValue scalar_or_array(const TomlPath& path, std::size_t depth) {
    TomlValue value;
    if (m_text.substr(m_at).starts_with("\"\"\"")) {
      value.kind = TomlValue::Kind::string;
      value.text = multi_line_string('"');
    } else if (m_text.substr(m_at).starts_with("'''")) {
      value.kind = TomlValue::Kind::string;
      value.text = multi_line_string('\'');
    } else if (peek() == '"') {
      value.kind = TomlValue::Kind::string;
      value.text = basic_string();
    } else if (peek() == '\'') {
      value.kind = TomlValue::Kind::string;
      value.text = literal_string();
    } else if (peek() == '[') {
      value.kind = TomlValue::Kind::array;
      array(value, path, depth);
    } else {
      bare_value(value);
    }
    return value;
  }

  // An inline table in an array is kept under the array's path and #N.
  void array(TomlValue& value, const TomlPath& path, std::size_t depth) {
    if (depth + 1 > m_bounds.max_nesting) fail("arrays or inline tables nested more than " + std::to_string(m_bounds.max_nesting) + " deep");
    ++m_at;
    skip_blank_lines();
    if (take("]")) return;
    for (std::size_t index = 0;; ++index) {
      if (index == m_bounds.max_keys) fail("an array of more than " + std::to_string(m_bounds.max_keys) + " items");
      TomlPath item_path = path;
      item_path.push_back("#" + std::to_string(index));
      if (peek() == '{') {
        assign(std::move(item_path), depth + 1);
      } else if (TomlValue item = scalar_or_array(item_path, depth + 1); item.kind == TomlValue::Kind::string) {
        value.strings.push_back(std::move(item.text));
      }
      skip_blank_lines();
      if (take("]")) return;
      if (!take(",")) fail("expected , or ] in an array");
      skip_blank_lines();
      if (take("]")) return;  // a trailing comma
    }
  }

  void bare_value(TomlValue& value) {
    const std::size_t start = m_at;
    // A date-time may hold one space between its date and its time.
    while (!at_end()) {
      const char c = peek();
      if (c == ' ' && m_at > start && std::isdigit(static_cast<unsigned char>(m_text[m_at - 1])) && m_at + 1 < m_text.size() &&
          std::isdigit(static_cast<unsigned char>(m_text[m_at + 1])) && m_text.substr(start, m_at - start).find('-') != std::string_view::npos)
        ++m_at;
      else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+' || c == '.' || c == ':')
        ++m_at;
      else
        break;
    }
    const std::string_view token = m_text.substr(start, m_at - start);
    if (token.empty()) fail("expected a value");
    value.text = std::string(token);
    if (token == "true" || token == "false") {
      value.kind = TomlValue::Kind::boolean;
      value.boolean = token == "true";
    } else if (auto number = integer_of(token)) {
      value.kind = TomlValue::Kind::integer;
      value.integer = *number;
    } else if (looks_like_integer(token)) {
      fail("an integer out of range: " + printable(token, 40));
    } else if (!std::isdigit(static_cast<unsigned char>(token.front())) && token.front() != '+' && token.front() != '-' &&
               token != "inf" && token != "nan") {
      fail("not a value: " + printable(token, 40));
    }
  }

  // A sign, then digits and underscores only: what does not parse as an integer is then out of range.
  static bool looks_like_integer(std::string_view token) {
    if (token.front() == '+' || token.front() == '-') token.remove_prefix(1);
    return !token.empty() && token.find_first_not_of("_0123456789") == std::string_view::npos;
  }

  // Decimal with optional sign and underscores between digits, or 0x/0o/0b.
  static std::optional<std::int64_t> integer_of(std::string_view token) {
    int base = 10;
    bool negative = false;
    if (token.starts_with("0x") || token.starts_with("0o") || token.starts_with("0b")) {
      base = token[1] == 'x' ? 16 : token[1] == 'o' ? 8 : 2;
      token.remove_prefix(2);
    } else if (!token.empty() && (token.front() == '+' || token.front() == '-')) {
      negative = token.front() == '-';
      token.remove_prefix(1);
    }
    if (token.empty() || token.front() == '_' || token.back() == '_') return std::nullopt;
    std::uint64_t number = 0;
    for (const char c : token) {
      if (c == '_') continue;
      int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                                                 : 99;
      if (digit >= base) return std::nullopt;
      // INT64_MIN's magnitude is one more than INT64_MAX's.
      const std::uint64_t most = static_cast<std::uint64_t>(INT64_MAX) + (negative ? 1 : 0);
      if (number > (most - static_cast<std::uint64_t>(digit)) / static_cast<std::uint64_t>(base)) return std::nullopt;
      number = number * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit);
    }
    if (negative) return number == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(number);
    return static_cast<std::int64_t>(number);
  }

  static void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  void escape(std::string& out) {
    const char c = peek();
    ++m_at;
    switch (c) {
      case 'b': out += '\b'; return;
      case 't': out += '\t'; return;
      case 'n': out += '\n'; return;
      case 'f': out += '\f'; return;
      case 'r': out += '\r'; return;
      case 'e': out += '\x1b'; return;
      case '"': out += '"'; return;
      case '\\': out += '\\'; return;
      case 'u':
      case 'U': {
        const std::size_t digits = c == 'u' ? 4 : 8;
        if (m_at + digits > m_text.size()) fail("a short \\u escape");
        std::uint32_t code = 0;
        for (std::size_t i = 0; i < digits; ++i) {
          const char h = m_text[m_at + i];
          if (!std::isxdigit(static_cast<unsigned char>(h))) fail("a \\u escape that is not hexadecimal");
          code = code * 16 + static_cast<std::uint32_t>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
        }
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) fail("a \\u escape that is no Unicode scalar value");
        m_at += digits;
        append_utf8(out, code);
        return;
      }
      default:
        fail("an unknown escape in a string");
    }
  }

  std::string basic_string() {
    ++m_at;  // "
    std::string out;
    while (true) {
      if (at_end() || peek() == '\n') fail("a string without its closing \"");
      const char c = peek();
      if (c == '"') {
        ++m_at;
        return out;
      }
      if (c == '\\') {
        ++m_at;
        escape(out);
      } else {
        out += c;
        ++m_at;
      }
    }
  }

  std::string literal_string() {
    ++m_at;  // '
    const std::size_t end = m_text.find_first_of("'\n", m_at);
    if (end == std::string_view::npos || m_text[end] != '\'') fail("a string without its closing '");
    std::string out(m_text.substr(m_at, end - m_at));
    m_at = end + 1;
    return out;
  }

  std::string multi_line_string(char quote) {
    const std::string delimiter(3, quote);
    m_at += 3;
    take_newline();  // a newline right after the opening delimiter is not part of the string
    std::string out;
    while (true) {
      if (at_end()) fail("a multi-line string without its closing " + delimiter);
      if (m_text.substr(m_at).starts_with(delimiter)) {
        m_at += 3;
        // Up to two more quotes belong to the string (""""" ends with "").
        for (int extra = 0; extra < 2 && peek() == quote; ++extra, ++m_at) out += quote;
        return out;
      }
      const char c = peek();
      if (c == '\n') {
        ++m_line;
        out += c;
        ++m_at;
      } else if (c == '\\' && quote == '"') {
        ++m_at;
        // A backslash at the end of a line trims the newline and the blanks after it.
        std::size_t after = m_at;
        while (after < m_text.size() && (m_text[after] == ' ' || m_text[after] == '\t')) ++after;
        if (after < m_text.size() && (m_text[after] == '\n' || m_text[after] == '\r')) {
          m_at = after;
          while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) {
            if (peek() == '\n') ++m_line;
            ++m_at;
          }
        } else {
          escape(out);
        }
      } else {
        out += c;
        ++m_at;
      }
    }
  }

  std::string_view m_text;
  TomlBounds m_bounds;
  std::size_t m_at = 0;
  std::size_t m_line = 1;
  TomlDocument m_document;
};

}  // namespace

Checked<TomlDocument> read_toml(std::string_view text, TomlBounds bounds) {
  try {
    return Reader(text, bounds).read();
  } catch (const Failure& failure) {
    return problem(failure.message);
  }
}

}  // namespace gd
