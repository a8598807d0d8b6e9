#include "cli/options.h"

#include "cli/option_table.h"
#include "host/local_fs.h"
#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

std::vector<std::string> all_names(bool options) {
  std::vector<std::string> names;
  if (options) {
    for (const auto& option : option_specs()) {
      names.emplace_back(option.name);
      if (!option.alias.empty()) names.emplace_back(option.alias);
    }
  } else {
    for (const auto& command : command_specs()) names.emplace_back(command.name);
  }
  return names;
}

std::string did_you_mean(std::string_view word, bool options) {
  const auto guess = nearest(word, all_names(options));
  return guess ? " (did you mean " + *guess + "?)" : "";
}

Command parse_command(const std::string& word) {
  if (const auto* command = find_command(word)) return command->command;
  throw UsageError("unknown command '" + printable(word, 60) + "'" + did_you_mean(word, false) + "; `gpudoctor --help` lists them");
}

Format parse_format(const std::string& value, const CommandSpec& command) {
  const std::string name = value == "md" ? "markdown" : value;
  for (const auto format : command.formats)
    if (format_name(format) == name) return format;
  if (command.formats.empty()) throw UsageError(std::string(command.name) + " takes no --format");
  throw UsageError("--format for " + std::string(command.name) + " is " + formats_of(command) + ", not '" + printable(value, 60) + "'");
}

ColorChoice parse_color(const std::string& value) {
  if (const auto choice = enum_from_name<ColorChoice>(value)) return *choice;
  throw UsageError("--color must be " + joined_names<ColorChoice>() + ", not '" + printable(value, 60) + "'");
}

// One argument split into option name and, for --name=value, its value.
struct Word {
  std::string name, value;
  bool inline_value = false;
};

Word split(const std::string& arg) {
  if (arg.starts_with("--") && arg.find('=') != std::string::npos)
    return {arg.substr(0, arg.find('=')), arg.substr(arg.find('=') + 1), true};
  return {arg, {}, false};
}

// --expect: "gpus=8[,KEY=VALUE]", or a file of such lines (# starts a comment).
// What an operator knows a machine should have, so that what vanished without
// a trace is still caught.
void read_expectations(const std::string& value, Options& options) {
  std::string text = value;
  if (value.find('=') == std::string::npos) {
    auto file = read_local_file(value, 4096);
    if (!file) throw UsageError("--expect: cannot read '" + printable(value, 200) + "': " + file.error().message());
    text = *file;
  }
  for (auto line : lines(text)) {
    line = trim(line.substr(0, line.find('#')));
    for (std::size_t start = 0; start < line.size();) {
      const auto end = std::min(line.find(',', start), line.size());
      const auto entry = trim(line.substr(start, end - start));
      start = end + 1;
      if (entry.empty()) continue;
      const auto equals = entry.find('=');
      const auto key = trim(entry.substr(0, equals));
      if (key != "gpus" && key != "ib-ports")
        throw UsageError("--expect knows gpus=N and ib-ports=N, not '" + printable(entry, 60) + "'");
      // value_or, not *: GCC 12 at -O2 thinks a dereferenced optional may be uninitialised here.
      const std::int64_t count = equals == std::string_view::npos ? 0 : parse_int(trim(entry.substr(equals + 1))).value_or(0);
      if (count < 1 || count > 1024)
        throw UsageError("--expect " + std::string(key) + "= takes a count from 1 to 1024, not '" + printable(entry, 60) + "'");
      (key == "gpus" ? options.expected_gpus : options.expected_ib_ports) = count;
    }
  }
}

bool is_option(const std::string& arg) { return arg.starts_with("-") && arg != "-"; }

// The command the arguments name (the first word that is no option and no
// option's value), so that each option is judged against it wherever it stands.
std::optional<Command> command_of(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") return i + 1 < args.size() ? std::optional(parse_command(args[i + 1])) : std::nullopt;
    if (!is_option(args[i])) return parse_command(args[i]);
    const Word word = split(args[i]);
    const auto* option = find_option(word.name);
    if (option && !option->value.empty() && !word.inline_value) ++i;
  }
  return std::nullopt;  // check, the default
}

}  // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options options;
  const auto named = command_of(args);
  options.command = named.value_or(Command::check);
  const CommandSpec& command = command_spec(options.command);
  bool have_command = false, only_positional = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!only_positional && arg == "--") {
      only_positional = true;  // what follows is a file, a rule id or error text, even when it starts with '-'
      continue;
    }
    if (only_positional || !is_option(arg)) {
      if (!have_command) have_command = true;  // command_of read it
      else if (options.command == Command::help && !options.help_about) options.help_about = parse_command(arg);
      else if (options.command == Command::explain && options.rule_id.empty()) options.rule_id = arg;
      else if ((options.command == Command::resolve || options.command == Command::lint) && options.file.empty()) options.file = arg;
      else if (options.command == Command::diff && options.compared.size() < 2) options.compared.push_back(arg);
      else throw UsageError("unexpected argument '" + printable(arg, 100) + "'");
      continue;
    }
    const Word word = split(arg);
    const OptionSpec* option = find_option(word.name);
    if (!option) throw UsageError("unknown option '" + printable(word.name, 60) + "'" + did_you_mean(word.name, true));
    if (!option_belongs_to(*option, command.command))  // the named command's, even after --help
      throw UsageError(std::string(option->name) + " is not an option of " + std::string(command.name) + " (`gpudoctor " +
                       std::string(command.name) + " --help` lists them)");
    if (option->value.empty() && word.inline_value) throw UsageError(std::string(option->name) + " takes no value");
    auto take_value = [&]() -> std::string {
      if (word.inline_value) return word.value;
      if (i + 1 >= args.size()) throw UsageError(std::string(option->name) + " needs a value (" + std::string(option->value) + ")");
      return args[++i];
    };
    const std::string_view name = option->name;
    if (name == "--help") {
      if (named && options.command != Command::help) options.help_about = options.command;
      options.command = Command::help;
    }
    else if (name == "--version") options.command = Command::version;
    else if (name == "--format") options.format = parse_format(take_value(), command);
    else if (name == "--json") options.format = parse_format("json", command);
    else if (name == "--color") options.color = parse_color(take_value());
    else if (name == "--verbose") options.verbose = true;
    else if (name == "--no-probe") options.driver_probe = false;
    else if (name == "--smoke") options.smoke = true;
    else if (name == "--here") options.here = true;
    else if (name == "--target") options.targets.push_back(take_value());
    else if (name == "--image") options.image = true;
    else if (name == "--strict") options.strict = true;
    else if (name == "--no-redact") options.redact = false;
    else if (name == "--gpu") options.assumed_gpu = take_value();
    else if (name == "--host-driver") options.assumed_driver = take_value();
    else if (name == "--expect") read_expectations(take_value(), options);
    else if (name == "--root") options.root = take_value();
    else if (name == "--replay") options.replay = take_value();
    else if (name == "--output") options.output = take_value();
    else if (name == "--rules") options.rules_dir = take_value();
    else if (name == "--every" || name == "--watch") {
      const std::string text = take_value();
      const auto seconds = text.find_first_not_of("0123456789") == std::string::npos ? parse_int(text) : std::nullopt;
      if (!seconds || *seconds < 1 || *seconds > 86400)
        throw UsageError(std::string(name) + " takes seconds from 1 to 86400, not '" + printable(text, 60) + "'");
      (name == "--every" ? options.every_seconds : options.watch_seconds) = static_cast<int>(*seconds);
    }
  }
  if (options.command == Command::help || options.command == Command::version) return options;
  if (options.smoke && !options.driver_probe) throw UsageError("--smoke runs in the driver probe, which --no-probe turns off");
  if (options.root && options.replay) throw UsageError("--root and --replay cannot be used together");
  if (options.command == Command::snapshot && !options.output) throw UsageError("snapshot needs --output DIR or FILE.tar.gz");
  // An empty DIR would make every path below it absolute: /snapshot.json, /root/...
  if (options.output && options.output->empty()) throw UsageError("--output needs a directory, not an empty string");
  if (options.command == Command::explain && options.rule_id.empty()) throw UsageError("explain needs a RULE-ID, a code or error text");
  // Checked here, so that a typo is a usage error (exit 2), never a diagnosis.
  if (options.assumed_gpu) {
    const auto& gpu = *options.assumed_gpu;
    const bool device_id = gpu.size() == 4 && gpu.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    const bool capability = gpu.size() >= 3 && gpu.find_first_not_of("0123456789.") == std::string::npos &&
                            std::count(gpu.begin(), gpu.end(), '.') == 1 && gpu.front() != '.' && gpu.back() != '.';
    if (!device_id && !capability)
      throw UsageError("--gpu takes a PCI device id (2330, see `lspci -nn`) or a compute capability (9.0), not '" + gpu + "'");
  }
  if (options.assumed_driver) {
    const auto& driver = *options.assumed_driver;
    const auto dot = driver.find('.');
    if (dot == std::string::npos || dot < 3 || driver.find_first_not_of("0123456789.") != std::string::npos)
      throw UsageError("--host-driver takes a driver version (550.54.15), not '" + driver + "'");
  }
  if ((options.assumed_gpu || options.assumed_driver) && !options.image)
    throw UsageError("--gpu and --host-driver describe the host an image will run on: use them with --image");
  if ((options.expected_gpus || options.expected_ib_ports) && options.image)
    throw UsageError("--expect describes a machine's hardware; an image (--image) has none");
  if (options.every_seconds && !options.output) throw UsageError("--every rewrites the file --output names: give one");
  if (options.every_seconds && options.replay) throw UsageError("--every checks a live system again and again; a replay never changes");
  if (options.watch_seconds && (options.replay || options.root))
    throw UsageError("--watch reads the live GPUs again and again; a replay or a --root directory never changes");
  if (options.here && (options.root || options.replay)) throw UsageError("--here checks this machine; not with --root or --replay");
  if (options.command == Command::resolve && options.file.empty()) throw UsageError("resolve needs a FILE");
  if (options.command == Command::lint && options.file.empty()) throw UsageError("lint needs a Dockerfile or a compose file");
  if (options.command == Command::diff && options.compared.size() != 2) throw UsageError("diff needs two snapshots or JSON reports: diff A B");
  return options;
}

namespace {

constexpr std::size_t k_help_column = 32;

// "  -v, --verbose", "  --format text|json|csv": the option as one command takes it.
std::string option_words(const OptionSpec& option, const CommandSpec* command) {
  std::string words = "  ";
  if (option.alias.size() == 2) words += std::string(option.alias) + ", ";
  words += option.name;
  if (option.alias.size() > 2) words += ", " + std::string(option.alias);
  if (!option.value.empty()) {
    std::string value(option.value);
    if (option.name == "--format" && command) {
      value.clear();
      for (const auto format : command->formats) value += (value.empty() ? "" : "|") + std::string(format_name(format));
    }
    words += " " + value;
  }
  return words;
}

std::string option_lines(const CommandSpec* command) {
  std::string out;
  for (const auto& option : option_specs()) {
    if (command && !option_belongs_to(option, command->command)) continue;
    if (command && (option.name == "--help" || option.name == "--version")) continue;
    std::string left = option_words(option, command);
    left += left.size() + 2 > k_help_column ? "\n" + std::string(k_help_column, ' ') : std::string(k_help_column - left.size(), ' ');
    std::string help(option.help);
    for (std::size_t at = help.find('\n'); at != std::string::npos; at = help.find('\n', at + 1 + k_help_column))
      help.insert(at + 1, std::string(k_help_column, ' '));
    out += left + help + "\n";
  }
  out += "  --" + std::string(k_help_column - 4, ' ') + "ends the options: what follows is a FILE, a RULE-ID or error text\n";
  return out;
}

}  // namespace

std::string command_usage(Command command) {
  const auto& spec = command_spec(command);
  if (command == Command::help || command == Command::version) return usage_text();
  std::string out = "usage: " + std::string(spec.synopsis) + "\n\n" + std::string(spec.description) + "\n";
  out += "\noptions:\n" + option_lines(&spec);
  return out + "\nexit status: 0 ok or warnings, 1 a failure (diff: a difference), 2 gpudoctor could not run.\n";
}

std::string usage_text() {
  std::string out = "usage: gpudoctor [COMMAND] [OPTIONS]\n\n"
                    "Diagnoses the NVIDIA GPU stack layer by layer, bottom up, and names the lowest\n"
                    "layer that fails, the evidence, and the fix.\n\ncommands:\n";
  for (const auto& command : command_specs()) {
    std::string left = "  " + std::string(command.name);
    left += std::string(k_help_column - 10 - left.size(), ' ');
    out += left + std::string(command.summary) + "\n";
  }
  out += "\noptions:\n" + option_lines(nullptr);
  return out + "\nexit status: 0 ok or warnings, 1 a layer fails, 2 gpudoctor could not run.\n";
}

}  // namespace gd
