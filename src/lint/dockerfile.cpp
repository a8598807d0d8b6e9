#include "lint/dockerfile.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace gd {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Heredoc markers in an instruction line: <<EOF, <<-EOF, <<"EOF", <<'EOF'.
std::vector<std::pair<std::string, bool>> heredoc_markers(std::string_view line) {
  std::vector<std::pair<std::string, bool>> markers;  // (word, strip leading tabs)
  for (std::size_t at = line.find("<<"); at != std::string_view::npos && markers.size() < 8; at = line.find("<<", at + 2)) {
    std::size_t i = at + 2;
    bool strip = false;
    if (i < line.size() && line[i] == '-') strip = true, ++i;
    char quote = 0;
    if (i < line.size() && (line[i] == '"' || line[i] == '\'')) quote = line[i++];
    std::size_t start = i;
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
    if (i == start) continue;
    if (quote && (i >= line.size() || line[i] != quote)) continue;
    markers.emplace_back(std::string(line.substr(start, i - start)), strip);
  }
  return markers;
}

}  // namespace

std::string substitute_args(std::string_view text, const std::vector<std::pair<std::string, std::string>>& args) {
  auto value_of = [&](std::string_view name) -> std::optional<std::string> {
    for (auto it = args.rbegin(); it != args.rend(); ++it)
      if (it->first == name) return it->second;
    return std::nullopt;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size() && out.size() < 4096; ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == '{') {
      const auto close = text.find('}', i + 2);
      if (close == std::string_view::npos) {
        out += text.substr(i);
        break;
      }
      auto inner = text.substr(i + 2, close - i - 2);
      std::optional<std::string> fallback;
      if (const auto dash = inner.find(":-"); dash != std::string_view::npos) {
        fallback = std::string(inner.substr(dash + 2));
        inner = inner.substr(0, dash);
      }
      const auto value = value_of(inner);
      out += value && !value->empty() ? *value : fallback.value_or("");
      i = close;
      continue;
    }
    std::size_t end = i + 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    if (end == i + 1) {
      out += '$';
      continue;
    }
    out += value_of(text.substr(i + 1, end - i - 1)).value_or("");
    i = end - 1;
  }
  return out;
}

Dockerfile parse_dockerfile(std::string_view text) {
  Dockerfile file;
  // Editors on Windows save a UTF-8 byte-order mark; BuildKit skips it, so the first line is still FROM.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (text.size() > k_max_dockerfile) {
    file.problems.push_back("larger than " + std::to_string(k_max_dockerfile >> 20) + " MB: read up to there");
    text = text.substr(0, k_max_dockerfile);
  }
  const auto all = lines(text);
  char escape = '\\';
  std::size_t at = 0;
  // Parser directives: only at the very top, before any other line.
  for (; at < all.size(); ++at) {
    const auto line = trim(all[at]);
    if (!line.starts_with("#")) break;
    const auto directive = trim(line.substr(1));
    const auto equals = directive.find('=');
    if (equals == std::string_view::npos) break;
    const auto key = to_lower(trim(directive.substr(0, equals)));
    if (key == "escape") {
      const auto value = trim(directive.substr(equals + 1));
      if (value == "`") escape = '`';
    } else if (key != "syntax" && key != "check") {
      break;
    }
  }
  std::vector<std::pair<std::string, std::string>> global_args;
  std::size_t stage = 0;
  while (at < all.size()) {
    const std::size_t start = at;
    std::string_view first = all[at];
    if (trim(first).empty() || trim(first).starts_with("#")) {
      ++at;
      continue;
    }
    // Join continuation lines; comment lines inside are dropped.
    std::string joined;
    std::string_view current = first;
    while (true) {
      auto piece = current;
      while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\t' || piece.back() == '\r')) piece.remove_suffix(1);
      const bool continued = !piece.empty() && piece.back() == escape;
      if (continued) piece.remove_suffix(1);
      joined += std::string(piece);
      ++at;
      if (!continued) break;
      while (at < all.size() && (trim(all[at]).starts_with("#") || trim(all[at]).empty())) ++at;
      if (at >= all.size()) break;
      joined += ' ';
      current = all[at];
    }
    const auto body = trim(joined);
    const auto space = body.find_first_of(" \t");
    Instruction instruction;
    instruction.keyword = upper(body.substr(0, space));
    instruction.text = space == std::string_view::npos ? std::string() : std::string(trim(body.substr(space)));
    instruction.line = start + 1;
    // Heredocs: their lines belong to this instruction, up to each terminator.
    for (const auto& [word, strip] : heredoc_markers(instruction.text)) {
      while (at < all.size()) {
        auto line = all[at++];
        if (strip)
          while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
        if (trim(line) == word) break;
        if (instruction.text.size() < (1 << 20)) instruction.text += "\n" + std::string(line);
      }
    }
    if (instruction.keyword == "FROM") {
      ++stage;
      Stage described;
      described.line = instruction.line;
      std::string_view rest = instruction.text;
      while (rest.starts_with("--")) {  // --platform=...
        const auto end = rest.find_first_of(" \t");
        rest = end == std::string_view::npos ? std::string_view() : trim(rest.substr(end));
      }
      const auto parts = split(rest, ' ');
      if (!parts.empty()) described.base = substitute_args(trim(parts[0]), global_args);
      for (std::size_t i = 0; i + 1 < parts.size(); ++i)
        if (upper(trim(parts[i])) == "AS") described.name = std::string(trim(parts[i + 1]));
      if (file.stages.size() < 256) file.stages.push_back(std::move(described));
    } else if (instruction.keyword == "ARG" && stage == 0) {
      const auto equals = instruction.text.find('=');
      if (equals != std::string::npos) {
        std::string value(trim(std::string_view(instruction.text).substr(equals + 1)));
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
          value = value.substr(1, value.size() - 2);
        global_args.emplace_back(std::string(trim(std::string_view(instruction.text).substr(0, equals))), value);
      }
    }
    instruction.stage = stage;
    if (file.instructions.size() < 100000) file.instructions.push_back(std::move(instruction));
  }
  return file;
}

}  // namespace gd
