#pragma once
// The command line as data: every command and option once, with the
// commands an option belongs to, its value and its help. Parsing, per-command
// rejection, suggestions for typos, --help, the man page and the shell
// completions (tools/make_man.py reads --help) all follow from these tables.

#include "cli/options.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct CommandSpec {
  Command command;
  std::string_view name;
  std::string_view summary;      // one line for the general usage
  std::string_view synopsis;     // "gpudoctor lint Dockerfile|compose.yaml [OPTIONS]"
  std::string_view description;  // the paragraph of `COMMAND --help`
  std::span<const Format> formats;  // what --format takes here; empty: no --format
};

struct OptionSpec {
  std::string_view name;   // "--format"
  std::string_view alias;  // "-o", or empty
  std::string_view value;  // its value's name ("DIR", "auto|always|never"); empty for a flag
  unsigned commands;       // a bit per Command it belongs to
  std::string_view help;   // continuation lines start with '\n'
};

std::span<const CommandSpec> command_specs();
std::span<const OptionSpec> option_specs();

const CommandSpec* find_command(std::string_view name);
const CommandSpec& command_spec(Command command);
const OptionSpec* find_option(std::string_view name);  // by name or alias
bool option_belongs_to(const OptionSpec& option, Command command);

std::string_view format_name(Format format);
// "text, json or csv"
std::string formats_of(const CommandSpec& command);

// The candidate nearest to word by edit distance, when it is near enough to
// be a typo of it ("stirct" -> "strict"); nullopt otherwise.
std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gd
