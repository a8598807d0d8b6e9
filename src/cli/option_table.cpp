#include "cli/option_table.h"

#include <algorithm>
#include <array>

namespace gd {

namespace {

constexpr unsigned bit(Command command) { return 1u << static_cast<unsigned>(command); }
constexpr unsigned k_every_command = ~0u;

constexpr Format k_check_formats[] = {Format::text, Format::json, Format::markdown, Format::prometheus, Format::line};
constexpr Format k_gpus_formats[] = {Format::text, Format::json, Format::csv};
constexpr Format k_text_json[] = {Format::text, Format::json};
constexpr Format k_rules_formats[] = {Format::text, Format::json, Format::markdown};

constexpr CommandSpec k_commands[] = {
    {Command::check, "check", "diagnose this machine or container (the default)", "gpudoctor check [OPTIONS]",
     "Diagnoses this machine or container (or --root DIR, --replay DIR) layer by layer, bottom up,\n"
     "and names the lowest layer that fails, the evidence, and the fix.",
     k_check_formats},
    {Command::snapshot, "snapshot", "capture everything the checks read, redacted, to attach to a ticket (--output DIR|FILE.tar.gz)",
     "gpudoctor snapshot --output DIR|FILE.tar.gz [--no-redact] [OPTIONS]",
     "Records everything the checks read (files, variables, children's answers) into DIR or one .tar.gz,\n"
     "to attach to a ticket; `gpudoctor check --replay DIR|FILE.tar.gz` gives the same diagnosis anywhere.\n"
     "Host and user names, home paths, GPU and MIG UUIDs, serial and part numbers, MAC and IP addresses\n"
     "become stable placeholders (the same value, the same placeholder), unless --no-redact.",
     {}},
    {Command::lint, "lint", "a Dockerfile's or compose file's GPU mistakes, with file, line and a corrected line",
     "gpudoctor lint Dockerfile|compose.yaml [--format json] [--strict]",
     "A Dockerfile's or compose file's GPU mistakes (a .yml/.yaml name is read as compose), each with\n"
     "file, line, the fix and where possible a corrected line. A file that cannot be read or is neither is exit 2.",
     k_text_json},
    {Command::diff, "diff", "what differs between two snapshots or JSON reports, layer by layer (\"works on A, not on B\")",
     "gpudoctor diff A B [--format json]",
     "What differs between two snapshots or saved JSON reports, layer by layer, bottom up. Exit 1 when they differ.",
     k_text_json},
    {Command::gpus, "gpus", "list the GPUs (from NVML, else nvidia-smi, else libcuda, else the files)",
     "gpudoctor gpus [--format text|json|csv] [OPTIONS]",
     "Lists the GPUs: from NVML when the driver answers, else nvidia-smi, else libcuda, else the files.", k_gpus_formats},
    {Command::rules, "rules", "list every rule", "gpudoctor rules [--format text|json|markdown]", "Lists every rule.",
     k_rules_formats},
    {Command::facts, "facts", "print the fact reference (markdown) that rules can address", "gpudoctor facts",
     "Prints the reference of the facts rules can address (markdown).", {}},
    {Command::explain, "explain", "one rule in full, a CUDA/NVML error code, or a pasted error message (\"-\": stdin)",
     "gpudoctor explain RULE-ID | CODE | \"ERROR TEXT\" | - [--here | --replay DIR | --root DIR]",
     "One rule in full, a CUDA or NVML error code, or a pasted error message: what it means, where its\n"
     "cause lives, what to check; with --here, --replay or --root, which of its causes holds there.",
     {}},
    {Command::resolve, "resolve", "the libraries FILE would load, and how each is found (ldd without running it)",
     "gpudoctor resolve FILE [--format json] [-v]",
     "The libraries FILE would load and how each is found, as the dynamic loader would (ldd without running it).",
     k_text_json},
    {Command::help, "help", "this text, or one command's (help COMMAND)", "gpudoctor help [COMMAND]", "", {}},
};

constexpr unsigned k_probing = bit(Command::check) | bit(Command::snapshot) | bit(Command::gpus) | bit(Command::explain);
constexpr unsigned k_formatted = bit(Command::check) | bit(Command::gpus) | bit(Command::lint) | bit(Command::diff) |
                                 bit(Command::rules) | bit(Command::resolve);

constexpr OptionSpec k_options[] = {
    {"--format", "", "FORMAT", k_formatted,
     "the output's format: text (default), json, markdown; check: prometheus (node_exporter's textfile\n"
     "collector), line (the closing line alone); gpus: csv"},
    {"--json", "", "", k_formatted, "the same as --format json"},
    {"--color", "--colour", "auto|always|never", bit(Command::check), "colour in the text report (a non-empty NO_COLOR turns auto off)"},
    {"--verbose", "-v", "", bit(Command::check) | bit(Command::resolve), "show every fact"},
    {"--image", "", "", bit(Command::check) | bit(Command::snapshot),
     "judge an image (with --root DIR, --replay, or inside a RUN step): no devices\n"
     "expected, the host is the one --gpu and --host-driver name"},
    {"--gpu", "", "DEVICE-ID|CC", bit(Command::check) | bit(Command::snapshot), "with --image: the host's GPU, a PCI device id (2330) or compute capability (9.0)"},
    {"--host-driver", "", "VERSION", bit(Command::check) | bit(Command::snapshot), "with --image: the host's driver (550.54.15); the whole law applies as if it were there"},
    {"--expect", "", "gpus=N|FILE", bit(Command::check) | bit(Command::snapshot),
     "what this machine should have, as KEY=VALUE[,KEY=VALUE] or a FILE of such lines:\n"
     "gpus=N, the NVIDIA GPUs on its PCI bus (a GPU gone without an Xid fails the check);\n"
     "ib-ports=N, its active InfiniBand or RoCE ports"},
    {"--strict", "", "", bit(Command::check) | bit(Command::lint), "warnings fail too (exit 1); check: a smoke test that cannot run is exit 2"},
    {"--target", "", "FILE", bit(Command::check) | bit(Command::snapshot), "check the GPU code of FILE (a program or library) against the GPUs; repeatable"},
    {"--no-probe", "", "", k_probing, "do not load libcuda/NVML in a child process to ask the driver"},
    {"--smoke", "", "", bit(Command::check) | bit(Command::snapshot), "also run a tiny kernel on every visible GPU (in that child)"},
    {"--output", "-o", "DIR|FILE", bit(Command::check) | bit(Command::snapshot),
     "snapshot: the new (or empty) directory, or the FILE.tar.gz, to write;\n"
     "check: the file to write the report to (replaced atomically)"},
    {"--every", "", "SECONDS", bit(Command::check),
     "check: again every SECONDS, rewriting --output each time, until stopped\n"
     "(a DaemonSet runs the static image this way: no shell needed)"},
    {"--watch", "", "SECONDS", bit(Command::gpus),
     "gpus: read the GPUs again every SECONDS until stopped (a tiny nvidia-smi dmon; --format csv\n"
     "or json: one line per GPU, or per reading, with its time, for a log)"},
    {"--no-redact", "", "", bit(Command::snapshot), "snapshot: keep host and user names, UUIDs, serials and addresses as they are"},
    {"--here", "", "", bit(Command::explain), "explain: check this machine for the causes of the error"},
    {"--root", "", "DIR", k_probing | bit(Command::resolve), "check DIR as if it were / (an unpacked image)"},
    {"--replay", "", "DIR|FILE.tar.gz", k_probing | bit(Command::resolve), "check a snapshot taken with `gpudoctor snapshot`"},
    {"--rules", "", "DIR", k_probing | bit(Command::lint) | bit(Command::diff) | bit(Command::rules),
     "use the rules in DIR instead of the built-in ones"},
    {"--help", "-h", "", k_every_command, "this text; COMMAND --help: that command's"},
    {"--version", "", "", k_every_command, "print gpudoctor's version"},
};

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::span<const CommandSpec> command_specs() { return k_commands; }
std::span<const OptionSpec> option_specs() { return k_options; }

const CommandSpec* find_command(std::string_view name) {
  for (const auto& command : k_commands)
    if (command.name == name) return &command;
  return nullptr;
}

const CommandSpec& command_spec(Command command) {
  for (const auto& spec : k_commands)
    if (spec.command == command) return spec;
  return k_commands[0];
}

const OptionSpec* find_option(std::string_view name) {
  for (const auto& option : k_options)
    if (option.name == name || (!option.alias.empty() && option.alias == name)) return &option;
  return nullptr;
}

bool option_belongs_to(const OptionSpec& option, Command command) { return (option.commands & bit(command)) != 0; }

std::string_view format_name(Format format) { return enum_name(format); }

std::string formats_of(const CommandSpec& command) {
  std::string out;
  for (std::size_t i = 0; i < command.formats.size(); ++i) {
    if (i) out += i + 1 == command.formats.size() ? " or " : ", ";
    out += format_name(command.formats[i]);
  }
  return out;
}

std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    const auto distance = edit_distance(word, candidate);
    if (!best || distance < best_distance) best = candidate, best_distance = distance;
  }
  // A typo: a letter or two wrong, never a different word that happens to be short.
  const std::size_t limit = word.size() <= 4 ? 1 : 2;
  if (!best || best_distance > limit) return std::nullopt;
  return best;
}

}  // namespace gd
