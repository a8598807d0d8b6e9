#include "cli/options.h"

#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

Format parse_format(const std::string& value) {
  if (value == "text") return Format::text;
  if (value == "json") return Format::json;
  if (value == "markdown" || value == "md") return Format::markdown;
  if (value == "csv") return Format::csv;
  if (value == "prometheus") return Format::prometheus;
  if (value == "line") return Format::line;
  throw UsageError("--format must be text, json, markdown or (for gpus) csv, not '" + value + "'");
}

ColorChoice parse_color(const std::string& value) {
  if (value == "auto") return ColorChoice::auto_detect;
  if (value == "always") return ColorChoice::always;
  if (value == "never") return ColorChoice::never;
  throw UsageError("--color must be auto, always or never, not '" + value + "'");
}

Command parse_command(const std::string& word) {
  if (word == "check") return Command::check;
  if (word == "snapshot") return Command::snapshot;
  if (word == "gpus") return Command::gpus;
  if (word == "diff") return Command::diff;
  if (word == "lint") return Command::lint;
  if (word == "rules") return Command::rules;
  if (word == "facts") return Command::facts;
  if (word == "explain") return Command::explain;
  if (word == "resolve") return Command::resolve;
  if (word == "help") return Command::help;
  throw UsageError("unknown command '" + word + "'");
}

}  // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options options;
  bool have_command = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string name = arg, value;
    bool inline_value = false;
    if (arg.starts_with("--") && arg.find('=') != std::string::npos) {
      name = arg.substr(0, arg.find('='));
      value = arg.substr(arg.find('=') + 1);
      inline_value = true;
    }
    auto take_value = [&]() -> std::string {
      if (inline_value) return value;
      if (i + 1 >= args.size()) throw UsageError(name + " needs a value");
      return args[++i];
    };
    if (name == "--help" || name == "-h") {
      if (have_command && options.command != Command::help) options.help_about = options.command;
      options.command = Command::help, have_command = true;
    }
    else if (name == "--version") options.command = Command::version, have_command = true;
    else if (name == "--format") options.format = parse_format(take_value());
    else if (name == "--json") options.format = Format::json;
    else if (name == "--color" || name == "--colour") options.color = parse_color(take_value());
    else if (name == "-v" || name == "--verbose") options.verbose = true;
    else if (name == "--no-probe") options.driver_probe = false;
    else if (name == "--smoke") options.smoke = true;
    else if (name == "--here") options.here = true;
    else if (name == "--target") options.targets.push_back(take_value());
    else if (name == "--image") options.image = true;
    else if (name == "--strict") options.strict = true;
    else if (name == "--no-redact") options.redact = false;
    else if (name == "--gpu") options.assumed_gpu = take_value();
    else if (name == "--host-driver") options.assumed_driver = take_value();
    else if (name == "--root") options.root = take_value();
    else if (name == "--replay") options.replay = take_value();
    else if (name == "--output" || name == "-o") options.output = take_value();
    else if (name == "--rules") options.rules_dir = take_value();
    else if (name == "--every") {
      const std::string text = take_value();
      const auto seconds = text.find_first_not_of("0123456789") == std::string::npos ? parse_int(text) : std::nullopt;
      if (!seconds || *seconds < 1 || *seconds > 86400) throw UsageError("--every takes seconds from 1 to 86400, not '" + text + "'");
      options.every_seconds = static_cast<int>(*seconds);
    }
    else if (arg.starts_with("-") && arg != "-") throw UsageError("unknown option '" + arg + "'");
    else if (!have_command) options.command = parse_command(arg), have_command = true;
    else if (options.command == Command::help && !options.help_about) options.help_about = parse_command(arg);
    else if (options.command == Command::explain && options.rule_id.empty()) options.rule_id = arg;
    else if ((options.command == Command::resolve || options.command == Command::lint) && options.file.empty()) options.file = arg;
    else if (options.command == Command::diff && options.compared.size() < 2) options.compared.push_back(arg);
    else throw UsageError("unexpected argument '" + arg + "'");
  }
  if (options.smoke && !options.driver_probe) throw UsageError("--smoke runs in the driver probe, which --no-probe turns off");
  if (options.root && options.replay) throw UsageError("--root and --replay cannot be used together");
  if (options.command == Command::snapshot && !options.output) throw UsageError("snapshot needs --output DIR or FILE.tar.gz");
  // An empty DIR would make every path below it absolute: /snapshot.json, /root/...
  if (options.output && options.output->empty()) throw UsageError("--output needs a directory, not an empty string");
  if (!options.redact && options.command != Command::snapshot) throw UsageError("--no-redact is for snapshot");
  if (options.output && options.command != Command::snapshot && options.command != Command::check)
    throw UsageError("--output is for check (the report's file) and snapshot");
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
  if (options.here && options.command != Command::explain) throw UsageError("--here is for explain");
  if (options.every_seconds && options.command != Command::check) throw UsageError("--every is for check");
  if (options.every_seconds && !options.output) throw UsageError("--every rewrites the file --output names: give one");
  if (options.every_seconds && options.replay) throw UsageError("--every checks a live system again and again; a replay never changes");
  if (options.here && (options.root || options.replay)) throw UsageError("--here checks this machine; not with --root or --replay");
  if (options.command == Command::resolve && options.file.empty()) throw UsageError("resolve needs a FILE");
  if (options.command == Command::lint && options.file.empty()) throw UsageError("lint needs a Dockerfile or a compose file");
  if (options.command == Command::lint && (options.format == Format::markdown || options.root || options.replay))
    throw UsageError("lint reads the file it is given and prints text or json");
  if (options.command == Command::resolve && options.format == Format::markdown) throw UsageError("resolve prints text or json");
  if (options.command == Command::diff && options.compared.size() != 2) throw UsageError("diff needs two snapshots or JSON reports: diff A B");
  if (options.command == Command::diff && (options.format == Format::markdown || options.root || options.replay))
    throw UsageError("diff prints text or json, of the two reports it is given");
  if ((options.format == Format::prometheus || options.format == Format::line) && options.command != Command::check)
    throw UsageError("--format prometheus and line are for check");
  if (options.format == Format::csv && options.command != Command::gpus) throw UsageError("--format csv is for gpus only");
  if (options.command == Command::gpus && options.format == Format::markdown) throw UsageError("gpus prints text, json or csv");
  return options;
}

namespace {

struct CommandHelp {
  Command command;
  const char* synopsis;
  const char* description;
  std::vector<const char*> options;  // the option lines of usage_text that apply
};

const std::vector<CommandHelp>& command_helps() {
  static const std::vector<CommandHelp> helps = {
      {Command::check, "gpudoctor check [OPTIONS]",
       "Diagnoses this machine or container (or --root DIR, --replay DIR) layer by layer, bottom up,\n"
       "and names the lowest layer that fails, the evidence, and the fix.",
       {"--format", "--color", "-v,", "--image", "--gpu", "--host-driver", "--strict", "--target", "--no-probe", "--smoke",
        "--output", "--every", "--root", "--replay", "--rules"}},
      {Command::snapshot, "gpudoctor snapshot --output DIR|FILE.tar.gz [--no-redact] [OPTIONS]",
       "Records everything the checks read (files, variables, children's answers) into DIR or one .tar.gz,\n"
       "to attach to a ticket; `gpudoctor check --replay DIR|FILE.tar.gz` gives the same diagnosis anywhere.\n"
       "Host and user names, home paths, GPU and MIG UUIDs, serial and part numbers, MAC and IP addresses\n"
       "become stable placeholders (the same value, the same placeholder), unless --no-redact.",
       {"--output", "--no-redact", "--target", "--no-probe", "--smoke", "--root", "--rules"}},
      {Command::gpus, "gpudoctor gpus [--format text|json|csv] [OPTIONS]",
       "Lists the GPUs: from NVML when the driver answers, else nvidia-smi, else libcuda, else the files.",
       {"--format", "--no-probe", "--root", "--replay", "--rules"}},
      {Command::lint, "gpudoctor lint Dockerfile|compose.yaml [--format json] [--strict]",
       "A Dockerfile's or compose file's GPU mistakes (a .yml/.yaml name is read as compose), each with\n"
       "file, line, the fix and where possible a corrected line.",
       {"--format", "--strict", "--rules"}},
      {Command::diff, "gpudoctor diff A B [--format json]",
       "What differs between two snapshots or saved JSON reports, layer by layer, bottom up. Exit 1 when they differ.",
       {"--format", "--rules"}},
      {Command::explain, "gpudoctor explain RULE-ID | CODE | \"ERROR TEXT\" | - [--here | --replay DIR | --root DIR]",
       "One rule in full, a CUDA or NVML error code, or a pasted error message: what it means, where its\n"
       "cause lives, what to check; with --here, --replay or --root, which of its causes holds there.",
       {"--here", "--root", "--replay", "--rules"}},
      {Command::resolve, "gpudoctor resolve FILE [--format json] [-v]",
       "The libraries FILE would load and how each is found, as the dynamic loader would (ldd without running it).",
       {"--format", "-v,", "--root", "--replay"}},
      {Command::rules, "gpudoctor rules [--format text|json|markdown]", "Lists every rule.", {"--format", "--rules"}},
      {Command::facts, "gpudoctor facts", "Prints the reference of the facts rules can address (markdown).", {}},
  };
  return helps;
}

}  // namespace

std::string command_usage(Command command) {
  for (const auto& help : command_helps()) {
    if (help.command != command) continue;
    std::string out = std::string("usage: ") + help.synopsis + "\n\n" + help.description + "\n";
    if (!help.options.empty()) out += "\noptions:\n";
    // The option lines (and their continuation lines) of the general usage, for the options that apply.
    const std::string all = usage_text();
    const std::string option_lines = all.substr(all.find("options:\n") + 9);  // held: lines() returns views into it
    bool taking = false;
    for (auto line : lines(option_lines)) {
      if (line.empty()) break;
      if (line.starts_with("  -")) {
        taking = false;
        const auto option = trim(line).substr(0, trim(line).find(' '));
        for (const char* wanted : help.options)
          if (option.starts_with(wanted)) taking = true;
      }
      if (taking) out += std::string(line) + "\n";
    }
    if (command == Command::help || command == Command::version) break;
    return out + "\nexit status: 0 ok or warnings, 1 a failure (diff: a difference), 2 gpudoctor could not run.\n";
  }
  return usage_text();
}

const char* usage_text() {
  return R"(usage: gpudoctor [COMMAND] [OPTIONS]

Diagnoses the NVIDIA GPU stack layer by layer, bottom up, and names the lowest
layer that fails, the evidence, and the fix.

commands:
  check                 diagnose this machine or container (the default)
  snapshot --output DIR|FILE.tar.gz
                        capture everything the checks read, redacted, to attach to a ticket
  lint Dockerfile|compose.yaml
                        the recipe's GPU mistakes, with file, line and a corrected line
  diff A B              what differs between two snapshots or JSON reports, layer by layer ("works on A, not on B")
  gpus                  list the GPUs (from NVML, else nvidia-smi, else libcuda, else the files); --format csv|json
  rules                 list every rule
  facts                 print the fact reference (markdown) that rules can address
  explain RULE-ID|CODE  print one rule in full, or what a CUDA/NVML error code means
  explain "ERROR TEXT"  what a pasted error message means and what to check ("-": read it from stdin);
                        with --here, --replay DIR or --root DIR, which of its causes holds there
  resolve FILE          the libraries FILE would load, and how each is found (ldd without running it)

options:
  --format text|json|markdown|prometheus|line
                                report format (default text; gpus: text, json or csv; prometheus: for
                                node_exporter's textfile collector; line: the closing line alone)
  --color auto|always|never     colour in the text report (a non-empty NO_COLOR turns auto off)
  -v, --verbose                 show every fact
  --image                       judge an image (with --root DIR, --replay, or inside a RUN step): no devices
                                expected, the host is the one --gpu and --host-driver name
  --gpu DEVICE-ID|CC            with --image: the host's GPU, a PCI device id (2330) or compute capability (9.0)
  --host-driver VERSION         with --image: the host's driver (550.54.15); the whole law applies as if it were there
  --strict                      warnings fail too (exit 1)
  --target FILE                 check the GPU code of FILE (a program or library) against the GPUs; repeatable
  --no-probe                    do not load libcuda/NVML in a child process to ask the driver
  --smoke                       also run a tiny kernel on every visible GPU (in that child)
  --output DIR|FILE.tar.gz      snapshot: the new (or empty) directory, or the archive, to write;
                                check: the file to write the report to (replaced atomically)
  --every SECONDS               check: again every SECONDS, rewriting --output each time, until stopped
                                (a DaemonSet runs the static image this way: no shell needed)
  --no-redact                   snapshot: keep host and user names, UUIDs, serials and addresses as they are
  --here                        explain: check this machine for the causes of the error
  --root DIR                    check DIR as if it were / (an unpacked image)
  --replay DIR|FILE.tar.gz      check a snapshot taken with `gpudoctor snapshot`
  --rules DIR                   use the rules in DIR instead of the built-in ones
  --version, --help

exit status: 0 ok or warnings, 1 a layer fails, 2 gpudoctor could not run.
)";
}

}  // namespace gd
