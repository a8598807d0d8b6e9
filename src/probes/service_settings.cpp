#include "probes/service_settings.h"

#include "host/host_paths.h"
#include "probes/systemd_units.h"
#include "util/text.h"

#include <algorithm>
#include <map>

namespace gd {
namespace {

constexpr std::size_t k_max_file = 64 << 10;
constexpr std::size_t k_max_files = 16;

// How a backslash reads in a word: as systemd reads a unit's Exec and
// Environment lines (C escapes: `\\` `\"` `\n` `\x41` `\101` `\u00e9` ...), or
// as it splits a variable's value for $NAME and an environment file's
// values (the backslash keeps the next character as it is).
enum class Escapes { c, literal_next };

void append_utf8(std::string& out, char32_t u) {
  if (u < 0x80) {
    out += static_cast<char>(u);
  } else if (u < 0x800) {
    out += static_cast<char>(0xC0 | (u >> 6));
    out += static_cast<char>(0x80 | (u & 0x3F));
  } else if (u < 0x10000) {
    out += static_cast<char>(0xE0 | (u >> 12));
    out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (u & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (u >> 18));
    out += static_cast<char>(0x80 | ((u >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (u & 0x3F));
  }
}

// The digits of an escape's number in one base, all of them valid; nothing else.
std::optional<std::uint32_t> escape_number(std::string_view digits, int base) {
  if (digits.empty()) return std::nullopt;
  std::uint32_t value = 0;
  for (char c : digits) {
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
    if (digit >= base) return std::nullopt;
    value = value * base + static_cast<std::uint32_t>(digit);
  }
  return value;
}

// One C escape after its backslash, as systemd's cunescape_one reads it: what
// it appends and how many characters it took; 0 for one systemd refuses (it
// then rejects the whole line; here the escape is kept as written).
std::size_t c_escape(std::string_view rest, std::string& out) {
  static constexpr std::string_view simple = "abfnrtv\\\"'s";
  static constexpr std::string_view meaning = "\a\b\f\n\r\t\v\\\"' ";
  if (rest.empty()) return 0;
  if (const auto at = simple.find(rest[0]); at != std::string_view::npos) {
    out += meaning[at];
    return 1;
  }
  auto number = [&](std::size_t skip, std::size_t digits, int base) -> std::optional<std::uint32_t> {
    if (rest.size() < skip + digits) return std::nullopt;
    return escape_number(rest.substr(skip, digits), base);
  };
  std::optional<std::uint32_t> value;
  std::size_t taken = 0;
  bool byte = false;
  switch (rest[0]) {
    case 'x': value = number(1, 2, 16), taken = 3, byte = true; break;
    case 'u': value = number(1, 4, 16), taken = 5; break;
    case 'U': value = number(1, 8, 16), taken = 9; break;
    default:
      if (rest[0] >= '0' && rest[0] <= '7') value = number(0, 3, 8), taken = 3, byte = true;
  }
  // NUL is never allowed, nor a byte above 255 or a code point outside Unicode.
  if (!value || *value == 0 || (byte && *value > 0xFF) || *value > 0x10FFFF || (*value >= 0xD800 && *value <= 0xDFFF)) return 0;
  if (byte) out += static_cast<char>(*value);
  else append_utf8(out, *value);
  return taken;
}

// Words as systemd's extract_first_word splits them: at spaces and tabs
// outside quotes, quotes removed wherever they stand in a word, a backslash
// read as `escapes` says, inside quotes too. Specifiers (%) are not expanded.
std::vector<std::string> words_of(std::string_view text, Escapes escapes = Escapes::c) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      in_word = true;
      if (escapes == Escapes::literal_next) {
        word += text[++i];
      } else if (const auto taken = c_escape(text.substr(i + 1), word)) {
        i += taken;
      } else {
        word += c;
      }
    } else if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Lines with systemd's backslash continuations joined; comments (# and ;) dropped.
std::vector<std::string> logical_lines(std::string_view text) {
  std::vector<std::string> out;
  std::string joined;
  for (auto line : lines(text)) {
    line = trim(line);
    if (joined.empty() && (line.starts_with('#') || line.starts_with(';'))) continue;
    // An odd run of backslashes at the end continues the line; an even one is escaped backslashes.
    const auto trailing = line.size() - std::min(line.find_last_not_of('\\') + 1, line.size());
    if (trailing % 2 == 1) {
      joined += std::string(line.substr(0, line.size() - 1)) + " ";
      continue;
    }
    joined += line;
    if (!joined.empty()) out.push_back(std::move(joined));
    joined.clear();
  }
  if (!joined.empty()) out.push_back(std::move(joined));
  return out;
}

// A unit's settings as systemd builds them: each file in order, where an
// empty `ExecStart=`, `Environment=` or `EnvironmentFile=` (how a drop-in
// replaces the unit's) drops what came before it.
class Reader {
 public:
  explicit Reader(Host& host) : m_host(host) {}

  bool unit_file(const std::string& path) {
    const auto text = m_host.read_file(path, k_max_file);
    if (!text) return false;
    for (const auto& line : logical_lines(*text)) {
      const std::string_view setting = line;
      if (setting.starts_with("ExecStart=")) {
        const auto words = words_of(setting.substr(10));
        if (words.empty()) m_exec_words.clear();
        for (const auto& word : words) m_exec_words.push_back({word, path});
      } else if (setting.starts_with("ExecCondition=")) {
        auto words = words_of(setting.substr(14));
        if (words.empty()) m_exec_conditions.clear();
        else m_exec_conditions.push_back(std::move(words));
      } else if (setting.starts_with("Environment=")) {
        const auto assignments = words_of(setting.substr(12));
        if (assignments.empty()) m_environment.clear();
        for (const auto& assignment : assignments) m_environment.push_back({assignment, path});
      } else if (setting.starts_with("EnvironmentFile=")) {
        std::string_view file = trim(setting.substr(16));
        if (file.empty()) m_environment_files.clear();
        if (file.starts_with('-')) file.remove_prefix(1);  // "-": optional; a missing one is skipped either way here
        if (!file.empty()) m_environment_files.emplace_back(file);
      }
    }
    return true;
  }

  bool room() { return m_files++ < k_max_files; }

  ServiceSettings take() {
    ServiceSettings settings{.exec_words = std::move(m_exec_words), .exec_conditions = std::move(m_exec_conditions), .variables = {}};
    for (auto& assignment : m_environment) variable(std::move(assignment), settings);
    for (const auto& file : m_environment_files) environment_file(file, settings);
    return settings;
  }

 private:
  void environment_file(const std::string& path, ServiceSettings& settings) {
    if (!room()) return;
    const auto text = m_host.read_file(path, k_max_file);
    if (!text) return;
    for (const auto& line : logical_lines(*text)) {
      std::string_view assignment = line;
      if (assignment.starts_with("export ")) assignment.remove_prefix(7);
      const auto equals = assignment.find('=');
      if (equals == std::string_view::npos) continue;
      // Two splits, each systemd's: the file's value with its quotes removed
      // here, then that value split at whitespace where ExecStart expands $NAME.
      auto value = words_of(assignment.substr(equals + 1), Escapes::literal_next);
      std::string joined;
      for (const auto& word : value) joined += (joined.empty() ? "" : " ") + word;
      variable({std::string(assignment.substr(0, equals + 1)) + joined, path}, settings);
    }
  }

  static void variable(ServiceWord assignment, ServiceSettings& settings) {
    if (assignment.text.find('=') != std::string::npos) settings.variables.push_back(std::move(assignment));
  }

  Host& m_host;
  std::vector<ServiceWord> m_exec_words, m_environment;
  std::vector<std::vector<std::string>> m_exec_conditions;
  std::vector<std::string> m_environment_files;
  std::size_t m_files = 0;
};

// Each drop-in's path, in the order systemd applies them: by file name,
// whatever directory holds it.
std::vector<std::string> drop_ins(Host& host, const std::vector<std::string>& dirs) {
  std::map<std::string, std::string> by_name;
  for (const auto& dir : dirs)
    if (auto names = host.list_dir(dir))
      for (const auto& name : *names)
        if (name.ends_with(".conf")) by_name.try_emplace(name, dir + "/" + name);
  std::vector<std::string> paths;
  for (auto& [name, path] : by_name) paths.push_back(std::move(path));
  return paths;
}

}  // namespace

ServiceSettings read_unit_settings(Host& host, const std::string& unit_path, const std::vector<std::string>& drop_in_dirs) {
  Reader reader(host);
  if (!reader.unit_file(unit_path)) return {};  // no unit file: systemd loads none of its drop-ins either
  for (const auto& path : drop_ins(host, drop_in_dirs))
    if (reader.room()) reader.unit_file(path);
  return reader.take();
}

ServiceSettings read_service_settings(Host& host, std::string_view unit) {
  return read_service_settings(host, unit, find_systemd_unit(host, unit));
}

ServiceSettings read_service_settings(Host& host, std::string_view unit, const SystemdUnit& found) {
  if (!found.path || found.masked) return {};
  std::vector<std::string> dirs;
  for (const char* root : k_systemd_unit_dirs) dirs.push_back(concat({root, "/", unit, ".d"}));
  return read_unit_settings(host, *found.path, dirs);
}

bool names_flag(std::string_view word, std::string_view flag) {
  return word.starts_with(flag) && (word.size() == flag.size() || word[flag.size()] == '=');
}

std::optional<std::string> ServiceSettings::variable(std::string_view name) const {
  std::optional<std::string> value;
  for (const auto& assignment : variables)
    if (assignment.text.size() > name.size() && assignment.text.starts_with(name) && assignment.text[name.size()] == '=')
      value = assignment.text.substr(name.size() + 1);
  return value;
}

// The command's words first, then each variable's ($NAME expands into them).
std::vector<ServiceWord> ServiceSettings::command_words() const {
  std::vector<ServiceWord> words = exec_words;
  for (const auto& assignment : variables)
    for (auto& word : words_of(std::string_view(assignment.text).substr(assignment.text.find('=') + 1), Escapes::literal_next))
      words.push_back({std::move(word), assignment.file});
  return words;
}

std::size_t exec_prefix_length(std::string_view word) { return std::min(word.find_first_not_of("-@:+!"), word.size()); }

std::vector<std::string> ServiceSettings::command_line() const {
  std::vector<std::string> argv;
  bool own_argv0 = false;  // "@": the word after the program is its argv[0]
  for (const auto& word : exec_words) {
    std::string_view text = word.text;
    if (argv.empty() && !own_argv0) {
      const auto prefixes = exec_prefix_length(text);
      own_argv0 = text.substr(0, prefixes).find('@') != std::string_view::npos;
      text.remove_prefix(prefixes);
      argv.emplace_back(text);
      continue;
    }
    if (own_argv0 && argv.size() == 1) {
      own_argv0 = false;
      continue;
    }
    if (text.size() > 1 && text.front() == '$' && text[1] != '{') {
      for (auto& value_word : words_of(variable(text.substr(1)).value_or(""), Escapes::literal_next)) argv.push_back(std::move(value_word));
      continue;
    }
    std::string expanded;
    for (std::size_t at = 0; at < text.size();) {
      const auto open = text.find("${", at);
      const auto close = open == std::string_view::npos ? open : text.find('}', open);
      if (close == std::string_view::npos) {
        expanded += text.substr(at);
        break;
      }
      expanded += text.substr(at, open - at);
      expanded += variable(text.substr(open + 2, close - open - 2)).value_or("");
      at = close + 1;
    }
    argv.push_back(std::move(expanded));
  }
  return argv;
}

std::string ServiceSettings::search_path() const { return variable("PATH").value_or(std::string(k_service_path)); }

std::vector<std::string> go_flag_values(const std::vector<std::string>& command_line, std::initializer_list<std::string_view> names) {
  std::vector<std::string> values;
  for (std::size_t i = 1; i < command_line.size(); ++i) {
    std::string_view word = command_line[i];
    if (word == "--") break;
    if (!word.starts_with('-')) continue;
    word.remove_prefix(word.starts_with("--") ? 2 : 1);
    for (const auto name : names) {
      if (!word.starts_with(name)) continue;
      if (word.size() == name.size() && i + 1 < command_line.size()) values.push_back(command_line[++i]);
      else if (word.size() > name.size() && word[name.size()] == '=') values.emplace_back(word.substr(name.size() + 1));
      else continue;
      break;
    }
  }
  return values;
}

std::vector<std::string> pflag_values(const std::vector<std::string>& command_line, std::string_view long_name, char short_name,
                                      std::string_view bool_shorthands) {
  std::vector<std::string> values;
  for (std::size_t i = 1; i < command_line.size(); ++i) {
    std::string_view word = command_line[i];
    if (word == "--") break;
    const bool has_next = i + 1 < command_line.size();
    if (word.starts_with("--")) {
      word.remove_prefix(2);
      if (!word.starts_with(long_name)) continue;
      if (word.size() == long_name.size() && has_next) values.push_back(command_line[++i]);
      else if (word.size() > long_name.size() && word[long_name.size()] == '=') values.emplace_back(word.substr(long_name.size() + 1));
    } else if (short_name && word.size() >= 2 && word[0] == '-') {
      // A cluster of one-letter flags, as pflag reads it: each boolean one
      // takes no value; the first other one takes the rest of the word, or
      // else the next word, and ends the cluster.
      for (std::size_t at = 1; at < word.size(); ++at) {
        if (bool_shorthands.find(word[at]) != std::string_view::npos) continue;
        const auto rest = word.substr(at + 1);
        if (word[at] == short_name && rest.empty() && has_next) values.push_back(command_line[++i]);
        else if (word[at] == short_name && !rest.empty()) values.emplace_back(rest.starts_with('=') ? rest.substr(1) : rest);
        else if (rest.empty() && has_next) ++i;  // another flag's value
        break;
      }
    }
  }
  return values;
}

std::optional<std::string> pflag_value(const std::vector<std::string>& command_line, std::string_view long_name, char short_name,
                                       std::string_view bool_shorthands) {
  auto values = pflag_values(command_line, long_name, short_name, bool_shorthands);
  if (values.empty()) return std::nullopt;
  return std::move(values.back());
}

std::optional<std::string> go_flag_value(const std::vector<std::string>& command_line, std::initializer_list<std::string_view> names) {
  auto values = go_flag_values(command_line, names);
  if (values.empty()) return std::nullopt;
  return std::move(values.back());
}

}  // namespace gd
