#pragma once
// Command-line parsing. Bad usage throws UsageError, which main turns into
// a message and exit status 2.

#include "report/terminal.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gd {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// gpudoctor could not write where it was told to (a missing directory, a
// full disk): exit 2, said plainly, not as an internal error.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Command { check, snapshot, gpus, diff, lint, rules, facts, explain, resolve, help, version };
enum class Format { text, json, markdown, csv, prometheus, line };
template <>
struct EnumTable<Format> {
  static constexpr std::array names{"text", "json", "markdown", "csv", "prometheus", "line"};
};

struct Options {
  Command command = Command::check;
  Format format = Format::text;
  ColorChoice color = ColorChoice::auto_detect;
  bool verbose = false;
  std::optional<Command> help_about;  // `gpudoctor check --help`, `gpudoctor help check`
  bool driver_probe = true;  // --no-probe
  bool smoke = false;        // --smoke
  bool here = false;         // explain --here: check this machine for the causes
  std::optional<std::string> root;
  std::optional<std::string> replay;
  std::optional<std::string> output;
  std::optional<std::string> rules_dir;
  std::string rule_id;
  std::string file;  // for resolve
  std::vector<std::string> compared;
  std::vector<std::string> targets;  // check --target PATH (repeatable)
  bool redact = true;                               // snapshot: replace identifying values (--no-redact keeps them)
  bool image = false, strict = false;               // check --image, --strict
  std::optional<int> every_seconds;                  // check --every SECONDS: again and again, never exiting on a verdict
  std::optional<int> watch_seconds;                  // gpus --watch SECONDS: the table again every SECONDS
  std::optional<std::string> assumed_gpu, assumed_driver;  // --gpu, --host-driver
  std::optional<std::int64_t> expected_gpus, expected_ib_ports;  // --expect gpus=N,ib-ports=N
};

Options parse_options(const std::vector<std::string>& args);
std::string usage_text();
// The usage of one command: what it does and the options it takes.
std::string command_usage(Command command);

}  // namespace gd
