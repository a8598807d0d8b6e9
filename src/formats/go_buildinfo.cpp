#include "formats/go_buildinfo.h"

#include "formats/elf_file.h"
#include "util/result.h"
#include "util/text.h"

namespace gd {
namespace {

// debug/buildinfo: a 32-byte header ("\xff Go buildinf:", the pointer size,
// flags), then, where flag 2 says the strings are inline, the Go release and
// the module information, each a uvarint length and its bytes.
constexpr std::string_view k_magic = "\xff Go buildinf:";
constexpr std::size_t k_header_size = 32;
constexpr unsigned char k_flag_inline_strings = 0x2;
// runtime/debug's module information is framed by 16 bytes on each side.
constexpr std::size_t k_frame = 16;
constexpr std::uint64_t k_max_section = 1 << 20;

// A uvarint-prefixed string at the front of rest, which is advanced past it.
std::optional<std::string_view> take_string(std::string_view& rest) {
  std::uint64_t length = 0;
  for (int shift = 0, used = 0;; shift += 7, ++used) {
    if (used == 10 || static_cast<std::size_t>(used) >= rest.size()) return std::nullopt;
    const auto byte = static_cast<unsigned char>(rest[static_cast<std::size_t>(used)]);
    length |= std::uint64_t{byte & 0x7fu} << shift;
    if (byte < 0x80) {
      rest.remove_prefix(static_cast<std::size_t>(used) + 1);
      break;
    }
  }
  if (length > rest.size()) return std::nullopt;
  auto text = rest.substr(0, static_cast<std::size_t>(length));
  rest.remove_prefix(static_cast<std::size_t>(length));
  return text;
}

// strconv.Unquote of what Go quoted in a build setting (spaces, quotes); text without quotes as it is.
std::string unquoted(std::string_view text) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::string(text);
  std::string out;
  for (std::size_t at = 1; at + 1 < text.size(); ++at) {
    if (text[at] != '\\' || at + 2 >= text.size()) {
      out += text[at];
      continue;
    }
    const char escaped = text[++at];
    switch (escaped) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'x':
        if (at + 2 < text.size()) {
          const auto hex = parse_hex(text.substr(at + 1, 2));
          if (hex) {
            out += static_cast<char>(*hex);
            at += 2;
            break;
          }
        }
        out += "\\x";
        break;
      default: out += escaped;  // \" and \\ as themselves
    }
  }
  return out;
}

// The words of a command line as the go command splits -ldflags (spaces; quotes are not expected in -X values).
std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  for (auto word : split(text, ' '))
    if (!word.empty()) words.push_back(word);
  return words;
}

GoModule module_of(const std::vector<std::string_view>& fields) {
  return {std::string(fields.size() > 1 ? fields[1] : ""), std::string(fields.size() > 2 ? fields[2] : ""), std::nullopt};
}

// runtime/debug.ParseBuildInfo's lines: path, mod, dep, "=>" (a replacement of the module before it), build.
void read_lines(std::string_view text, GoBuildInfo& info) {
  GoModule* last = nullptr;
  for (auto line : split(text, '\n')) {
    const auto fields = split(line, '\t');
    if (fields.empty()) continue;
    if (fields[0] == "path" && fields.size() > 1) {
      info.main_path = std::string(fields[1]);
    } else if (fields[0] == "mod") {
      info.main_module = module_of(fields);
      last = &*info.main_module;
    } else if (fields[0] == "dep") {
      info.dependencies.push_back(module_of(fields));
      last = &info.dependencies.back();
    } else if (fields[0] == "=>" && last) {
      const auto replacement = module_of(fields);
      last->replaced_by = replacement.path;
      last->version = replacement.version;
    } else if (fields[0] == "build" && fields.size() > 1) {
      const auto setting = line.substr(6);
      const auto equals = setting.starts_with('"') ? setting.find("\"=") + 1 : setting.find('=');
      if (equals == std::string_view::npos || equals == 0) continue;
      info.settings.emplace_back(unquoted(setting.substr(0, equals)), unquoted(setting.substr(equals + 1)));
    }
  }
}

}  // namespace

std::optional<std::string> GoBuildInfo::setting(std::string_view key) const {
  for (const auto& [name, value] : settings)
    if (name == key) return value;
  return std::nullopt;
}

std::optional<std::string> GoBuildInfo::linker_value(std::string_view variable) const {
  const auto flags = setting("-ldflags");
  if (!flags) return std::nullopt;
  // "-X name=value" or "-X=name=value", the last one winning as it does for the linker.
  std::optional<std::string> found;
  const auto words = words_of(*flags);
  for (std::size_t at = 0; at < words.size(); ++at) {
    std::string_view assignment;
    if (words[at] == "-X" || words[at] == "--X") {
      if (at + 1 == words.size()) break;
      assignment = words[++at];
    } else if (words[at].starts_with("-X=")) {
      assignment = words[at].substr(3);
    } else {
      continue;
    }
    if (assignment.size() > variable.size() && assignment.starts_with(variable) && assignment[variable.size()] == '=')
      found = std::string(assignment.substr(variable.size() + 1));
  }
  return found;
}

Checked<GoBuildInfo> parse_go_buildinfo(std::string_view section) {
  if (section.size() < k_header_size || !section.starts_with(k_magic)) return problem("no Go build information header");
  if ((static_cast<unsigned char>(section[15]) & k_flag_inline_strings) == 0)
    return problem("Go build information of a release before Go 1.18 (pointers, not strings)");
  std::string_view rest = section.substr(k_header_size);
  const auto go_version = take_string(rest);
  const auto modules = go_version ? take_string(rest) : std::nullopt;
  if (!modules) return problem("Go build information cut short");
  GoBuildInfo info{.go_version = std::string(*go_version)};
  // Without its frame (a program built outside a module) there is no module information.
  if (modules->size() > 2 * k_frame && (*modules)[modules->size() - k_frame - 1] == '\n')
    read_lines(modules->substr(k_frame, modules->size() - 2 * k_frame), info);
  return info;
}

Checked<GoBuildInfo> read_go_buildinfo(Files& files, const std::string& path) {
  for (const auto& section : read_sections(files, path)) {
    if (section.name != ".go.buildinfo") continue;
    if (section.size > k_max_section) return problem("its .go.buildinfo section is larger than 1 MiB");
    auto bytes = files.read_range(path, section.offset, static_cast<std::size_t>(section.size));
    if (!bytes) return problem("its .go.buildinfo section could not be read: " + errno_name(bytes.error().value()));
    return parse_go_buildinfo(*bytes);
  }
  return problem("no .go.buildinfo section: not a Go program, or its section headers are gone");
}

}  // namespace gd
