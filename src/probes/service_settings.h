#pragma once
// What systemd gives a service beside its own files: the words of ExecStart
// and the variables of Environment= and EnvironmentFile=, from its unit and
// its drop-ins (NAME.d/*.conf in each of systemd's unit directories), each
// with the file it came from, as systemd applies them: an empty `ExecStart=`
// in a drop-in replaces the unit's command. A daemon may take
// its settings from either (crio's flags, and the CONTAINER_* variables its
// command line reads); what its files say is then not all of it.

#include "host/host.h"
#include "probes/systemd_units.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct ServiceWord {
  std::string text;  // "--default-runtime=nvidia", or a variable's "NAME=VALUE"
  std::string file;  // where it was written
};

struct ServiceSettings {
  std::vector<ServiceWord> exec_words;  // ExecStart's words, quotes and C escapes undone
  // Each ExecCondition's words, systemd's C escapes undone (`\\.` is `\.`).
  std::vector<std::vector<std::string>> exec_conditions;
  std::vector<ServiceWord> variables;   // NAME=VALUE, as written; an environment file's after Environment='s, as systemd applies them

  // ExecStart's words, and every variable value's words ($CRIO_RUNTIME_OPTIONS).
  std::vector<ServiceWord> command_words() const;

  // The value the service gets for a variable: the last one set.
  std::optional<std::string> variable(std::string_view name) const;

  // ExecStart's command as systemd runs it: the program without its prefixes
  // (-@:+!), each `$NAME` word replaced by that variable's words and each
  // `${NAME}` by its value; empty where the unit starts nothing.
  std::vector<std::string> command_line() const;

  // The PATH the service's processes get: its Environment's, else systemd's default.
  std::string search_path() const;
};

// A system service's: empty where the unit is not installed or is masked. Each file is
// read up to 64 KiB, at most 16 drop-ins and environment files together.
ServiceSettings read_service_settings(Host& host, std::string_view unit);
// The same, for a unit already found.
ServiceSettings read_service_settings(Host& host, std::string_view unit, const SystemdUnit& found);

// How many of an Exec line's first word's characters are systemd's prefixes
// (-@:+!), which are not part of the program's path.
std::size_t exec_prefix_length(std::string_view word);

// Whether a command word names a flag as Go's flag packages take it: `--flag`
// (its value the next word) or `--flag=VALUE`.
bool names_flag(std::string_view word, std::string_view flag);

// The value a Go program's flag gets from a command line (Go's flag package,
// and urfave/cli on it): the last `-NAME VALUE`, `--NAME VALUE`,
// `-NAME=VALUE` or `--NAME=VALUE` for any of its names.
std::optional<std::string> go_flag_value(const std::vector<std::string>& command_line, std::initializer_list<std::string_view> names);
// Every value a repeatable flag gets, in order.
std::vector<std::string> go_flag_values(const std::vector<std::string>& command_line, std::initializer_list<std::string_view> names);

// The same for a program on spf13/pflag (dockerd): the long name takes two
// dashes (`--NAME VALUE`, `--NAME=VALUE`), the one-letter one one dash, its
// value the next word, after '=' or joined (`-H VALUE`, `-H=VALUE`,
// `-HVALUE`). `short_name` 0: none. In a cluster of one-letter flags
// (`-DH VALUE`), `bool_shorthands` are the program's boolean ones, which
// take no value; any other letter takes the rest of the word or the next.
std::vector<std::string> pflag_values(const std::vector<std::string>& command_line, std::string_view long_name, char short_name = 0,
                                      std::string_view bool_shorthands = {});
std::optional<std::string> pflag_value(const std::vector<std::string>& command_line, std::string_view long_name, char short_name = 0,
                                       std::string_view bool_shorthands = {});

// One unit file's and its drop-ins' in the directories given (a user's
// unit, whose directories are not the system's); empty where the unit file
// cannot be read.
ServiceSettings read_unit_settings(Host& host, const std::string& unit_path, const std::vector<std::string>& drop_in_dirs);

}  // namespace gd
