#include "probes/service_settings.h"

#include "probes/systemd_units.h"
#include "util/text.h"

#include <algorithm>

namespace gd {
namespace {

constexpr std::size_t k_max_file = 64 << 10;
constexpr std::size_t k_max_files = 16;

// Shell-like words, quotes removed (systemd's own splitting, without its specifiers and escapes).
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  bool in_word = false;
  for (char c : text) {
    if (quote) {
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
    if (line.ends_with('\\')) {
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

class Reader {
 public:
  explicit Reader(Host& host) : m_host(host) {}

  void unit_file(const std::string& path) {
    const auto text = m_host.read_file(path, k_max_file);
    if (!text) return;
    for (const auto& line : logical_lines(*text)) {
      if (line.starts_with("ExecStart=")) {
        for (auto& word : words_of(std::string_view(line).substr(10))) m_settings.command_words.push_back({std::move(word), path});
      } else if (line.starts_with("Environment=")) {
        for (auto& assignment : words_of(std::string_view(line).substr(12))) variable(std::move(assignment), path);
      } else if (line.starts_with("EnvironmentFile=")) {
        std::string_view file = trim(std::string_view(line).substr(16));
        if (file.starts_with('-')) file.remove_prefix(1);  // "-": optional; a missing one is skipped either way here
        environment_file(std::string(file));
      }
    }
  }

  bool room() { return m_files++ < k_max_files; }
  ServiceSettings take() { return std::move(m_settings); }

 private:
  void environment_file(const std::string& path) {
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
      auto value = words_of(assignment.substr(equals + 1));
      std::string joined;
      for (const auto& word : value) joined += (joined.empty() ? "" : " ") + word;
      variable(std::string(assignment.substr(0, equals + 1)) + joined, path);
    }
  }

  // A variable, and its value's words: ExecStart expands $NAME into them.
  void variable(std::string assignment, const std::string& path) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos) return;
    for (auto& word : words_of(std::string_view(assignment).substr(equals + 1))) m_settings.command_words.push_back({std::move(word), path});
    m_settings.variables.push_back({std::move(assignment), path});
  }

  Host& m_host;
  ServiceSettings m_settings;
  std::size_t m_files = 0;
};

}  // namespace

ServiceSettings read_service_settings(Host& host, std::string_view unit) {
  const auto found = find_systemd_unit(host, unit);
  if (!found.path) return {};
  Reader reader(host);
  reader.unit_file(*found.path);
  const std::string drop_in_dir = concat({"/etc/systemd/system/", unit, ".d"});
  if (auto names = host.list_dir(drop_in_dir)) {
    std::sort(names->begin(), names->end());
    for (const auto& name : *names)
      if (name.ends_with(".conf") && reader.room()) reader.unit_file(drop_in_dir + "/" + name);
  }
  return reader.take();
}

}  // namespace gd
