#include "cli/commands.h"

#include "check/run_check.h"
#include "cli/resolve_output.h"
#include "facts/fact_reference.h"
#include "gpudoctor_config.h"
#include "host/live_host.h"
#include "host/local_fs.h"
#include "host/session_host.h"
#include "lint/compose_lint.h"
#include "lint/dockerfile_lint.h"
#include "loader/load_simulation.h"
#include "model/layers.h"
#include "probes/driver_probe.h"
#include "redact/redacting_host.h"
#include "report/gpu_table.h"
#include "report/renderers.h"
#include "report/report_diff.h"
#include "rules/embedded_rules.h"
#include "rules/rule_facts.h"
#include "snapshot/recording_host.h"
#include "snapshot/replay_host.h"
#include "snapshot/snapshot_archive.h"
#include "util/interrupt_cleanup.h"
#include "util/json_pretty.h"
#include "util/path.h"
#include "util/text.h"

#include <cerrno>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include <unistd.h>

namespace gd {

namespace {

// Why a file named on the command line was not read, in words: a FIFO, a
// device or a directory is refused (EINVAL from the local reader), never waited on.
std::string unreadable_input(const std::error_code& error) {
  if (error.value() == EINVAL) return "not a regular file (a FIFO, device or directory is not read)";
  return error.message();
}

}  // namespace

namespace {

// The built-in rules are checked against the facts by the unit suite; a
// --rules set is checked here, each time it is loaded. A set is kept until
// the process ends and never freed: freeing its thousands of strings at exit
// was a twentieth of an 8-GPU replay, work nobody waits for. Both stay
// reachable from a static, so a leak checker counts neither; the built-in
// set is read once however often a process (a test) asks.
const RuleSet& load_rules(const Options& options) {
  if (!options.rules_dir) return built_in_rules();
  RuleSet rules = load_rules_dir(*options.rules_dir);
  check_rules_against(rules, host_fact_schema());
  static auto* const loaded = new std::vector<std::unique_ptr<const RuleSet>>();
  loaded->push_back(std::make_unique<const RuleSet>(std::move(rules)));
  return *loaded->back();
}

// For a check: the built-in set's tables now and its rules when the check
// judges; a --rules set is loaded (and refused) whole, before anything runs.
CheckRules check_rules(const Options& options) {
  if (!options.rules_dir) return {built_in_tables(), built_in_rules};
  return CheckRules::whole(load_rules(options));
}

std::unique_ptr<Host> make_host(const Options& options) {
  if (options.replay) return std::make_unique<ReplayHost>(*options.replay);
  if (options.root) {
    if (!std::filesystem::is_directory(*options.root)) throw UsageError("--root " + *options.root + " is not a directory");
    return std::make_unique<LiveHost>(std::filesystem::absolute(*options.root).string());
  }
  return std::make_unique<LiveHost>("/");
}

std::string rendered_report(const Report& report, const Options& options) {
  switch (options.format) {
    // Indented on a terminal and into --output's file (read by people, attached
    // to tickets); one line into a pipe or a log, where 600 lines per start would flood it.
    case Format::json:
      return render_json(report, options.output || isatty(STDOUT_FILENO) ? JsonLayout::pretty : JsonLayout::compact);
    case Format::markdown: return render_markdown(report);
    case Format::prometheus: return render_prometheus(report);
    case Format::line: return action_line(report) + "\n";  // Kubernetes NPD's message, scripts
    case Format::text:
    case Format::csv:  // refused for check by parse_options
      break;
  }
  // A file gets plain UTF-8 text: no colour, no wrapping.
  const auto style = options.output ? TerminalStyle{false, true, 0} : decide_terminal_style(options.color);
  return render_text(report, style, options.verbose ? Verbosity::verbose : Verbosity::normal);
}

// To stdout, or with --output to a file replaced atomically (node_exporter's
// textfile collector must never read half a file).
void print_report(const Report& raw, const Options& options) {
  // What people read is escaped once, here, field by field (the renderer's own colours stay);
  // JSON escapes control bytes itself, and prometheus its labels.
  const bool for_people = options.format == Format::text || options.format == Format::markdown || options.format == Format::line;
  std::optional<Report> escaped;  // JSON and prometheus print the report as it is, not a copy
  if (for_people) escaped = terminal_safe_report(raw);
  const Report& report = escaped ? *escaped : raw;
  const std::string text = rendered_report(report, options);
  if (!options.output) {
    std::cout << text;
    return;
  }
  if (auto written = write_output_file(*options.output, text); !written)
    throw OutputError("cannot write " + *options.output + ": " + written.error().message());
}

// The GPU table in the format asked for; a --watch reading's text is headed by its time.
std::string rendered_gpus(const std::vector<GpuRow>& rows, Format format, const GpuReading& reading) {
  switch (format) {
    case Format::json: return render_gpus_json(rows, reading);
    case Format::csv: return render_gpus_csv(rows, reading);
    default: break;
  }
  const std::string heading = reading.at.empty() ? "" : (reading.header ? "" : "\n") + reading.at + "\n";
  return heading + render_gpus_text(rows);
}

// 2026-12-02T19:30:00Z: when a `gpus --watch` reading was taken.
std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

ProbeOptions probe_options(const Options& options) {
  return {options.driver_probe, options.smoke, options.targets, options.image, options.assumed_gpu, options.assumed_driver,
          options.expected_gpus, options.expected_ib_ports};
}

// Under --strict, a check that could not do what was asked (a finding of a
// rule marked unmet_request: --smoke where no kernel can run) is exit 2, like
// any other request gpudoctor cannot honour.
int exit_status(const Report& report, bool strict = false) {
  if (strict)
    for (const auto& layer : report.layers)
      for (const auto& finding : layer.findings)
        if (finding.unmet_request) return 2;
  return report.verdict == Status::fail || (strict && report.verdict == Status::warn) ? 1 : 0;
}

// The snapshot directory must be new or empty, so we never mix evidence or
// overwrite anything the user did not hand us.
void prepare_output_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(dir, error) && !(fs::is_directory(dir, error) && fs::is_empty(dir, error)))
    throw UsageError("--output " + dir + " exists and is not an empty directory");
  fs::create_directories(dir + "/root", error);
  if (error) throw UsageError("cannot create " + dir + ": " + error.message());
}

// --target names a program or library to judge: a file that is missing, a
// directory or not ELF is a usage error naming it, never a healthy "✓".
void check_targets(Host& host, const std::vector<std::string>& targets) {
  for (const auto& target : targets) {
    const std::string named = "--target " + printable(target, 300);
    auto stat = host.stat(target);
    if (!stat) throw UsageError(named + ": " + stat.error().message());
    if (stat->type == FileType::directory) throw UsageError(named + " is a directory, not a program or library");
    if (stat->type != FileType::regular) throw UsageError(named + " is not a regular file");
    auto magic = host.read_range(target, 0, 4);
    if (!magic || *magic != std::string_view("\x7f" "ELF", 4)) throw UsageError(named + " is not an ELF file (a program or shared library)");
  }
}

}  // namespace

// A root with no kernel interfaces at all is an image's file system, not a
// machine's (a machine's root copied or mounted keeps /proc/version and /sys).
bool looks_like_image(Host& host) {
  return !host.read_file("/proc/version", 256) && !host.stat("/sys/bus") && host.stat("/usr");
}

int run_check_command(const Options& options) {
  const CheckRules rules = check_rules(options);
  auto host = make_host(options);
  check_targets(*host, options.targets);
  if (options.every_seconds) {
    // A long-running check (a DaemonSet's container): the verdict is in the
    // file, never the exit status; SIGTERM ends it as it ends `sleep`.
    for (;;) {
      print_report(run_check(*host, rules, probe_options(options)), options);
      std::this_thread::sleep_for(std::chrono::seconds(*options.every_seconds));
    }
  }
  const Report report = run_check(*host, rules, probe_options(options));
  print_report(report, options);
  if (options.root && !options.image && looks_like_image(*host))
    std::cerr << "gpudoctor: " << printable(*options.root, 200)
              << " has no /proc or /sys, as an unpacked image has none: an image gets the driver from the host when it runs, so "
                 "`gpudoctor check --image "
              << printable(*options.root, 200) << "` is the check for it (--root reads a machine's root).\n";
  return exit_status(report, options.strict);
}

void check_output_written() {
  errno = 0;
  std::cout.flush();
  if (!std::cout.fail()) return;
  const int error = errno;
  std::cout.clear();
  throw OutputError(std::string("cannot write the answer to standard output: ") +
                    (error ? std::generic_category().message(error) : std::string("the write failed")));
}

// The walk of check up to the driver-libs layer (so --replay and --root
// work), asking only what lists the GPUs: NVML, else nvidia-smi's query,
// else CUDA, else the files. No kernel log, no node opened, no cuInit where
// NVML answered.
int run_gpus_command(const Options& options) {
  const CheckRules rules = check_rules(options);
  auto host = make_host(options);
  ProbeOptions table_only = probe_options(options);
  table_only.gpu_table = true;
  const auto read_gpus = [&](Host& from) { return run_check(from, rules, table_only).gpus; };
  if (!options.watch_seconds) {
    std::cout << rendered_gpus(read_gpus(*host), options.format, {});
    return 0;
  }
  // Each reading asks the same NVML child again, from its one nvmlInit (as
  // `nvidia-smi dmon` keeps one session), or nvidia-smi where NVML did not
  // answer; SIGINT or SIGTERM ends it as it ends `nvidia-smi dmon`.
  SessionHost watching(*host, nvml_probe_request(k_nvml_probe_deadline, true), nvml_table_session_request(k_nvml_probe_deadline));
  for (bool first = true;; first = false) {
    std::cout << rendered_gpus(read_gpus(watching), options.format, {utc_now_iso8601(), first});
    check_output_written();  // a reader that went away ends the watch
    std::this_thread::sleep_for(std::chrono::seconds(*options.watch_seconds));
  }
}

// A snapshot directory is replayed with today's rules; a file must be a
// saved JSON report.
boost::json::object report_for_diff(const std::string& path, const RuleSet& rules, const Options& options) {
  if (std::filesystem::is_directory(path) || is_archive_name(path)) {
    ReplayHost host(path);
    return report_to_json(run_check(host, rules, probe_options(options)));
  }
  // A report of 512 GPUs is 1.5 MB; parsed, a report takes about ten times its size, twice over in a diff.
  constexpr std::size_t k_max_report = 8 << 20;
  auto text = read_local_file(path, k_max_report + 1);
  if (!text) throw UsageError(path + ": " + unreadable_input(text.error()));
  if (text->size() > k_max_report)
    throw UsageError(path + ": larger than the " + std::to_string(k_max_report >> 20) + " MB a report is read to (one of 512 GPUs is 1.5 MB)");
  boost::system::error_code error;
  auto document = boost::json::parse(*text, error);
  const auto* schema = document.is_object() ? document.as_object().if_contains("schema") : nullptr;
  if (error || !schema || !schema->is_string() || schema->get_string() != k_report_schema)
    throw UsageError(path + ": neither a snapshot (a directory or .tar.gz) nor a " + std::string(k_report_schema) + " JSON report");
  return document.as_object();
}

int run_diff_command(const Options& options) {
  const RuleSet& rules = load_rules(options);
  const auto& [a, b] = std::pair{options.compared[0], options.compared[1]};
  const auto diff = diff_reports(report_for_diff(a, rules, options), report_for_diff(b, rules, options));
  if (options.format == Format::json) {
    boost::json::value document = diff_to_json(diff, a, b);
    make_valid_utf8(document);
    std::cout << pretty_json(document);
  } else {
    // Bounded like its inputs: past 1 MiB it ends at a line, and says where the rest is.
    constexpr std::size_t k_max_text = 1 << 20;
    std::string text = terminal_safe(valid_utf8(render_diff_text(diff, a, b)));  // it holds no colour of its own
    if (text.size() > k_max_text) {
      text.resize(text.rfind('\n', k_max_text) + 1);
      text += "... the differences go on past 1 MiB of text; `gpudoctor diff --format json` gives them whole.\n";
    }
    std::cout << text;
  }
  return diff.layers.empty() ? 0 : 1;
}

namespace {

bool is_compose_name(std::string_view path) {
  const std::string name(base_name(path));
  return name.ends_with(".yml") || name.ends_with(".yaml");
}

}  // namespace

// A Dockerfile, or a compose file (by its .yml/.yaml name): the same output either way.
int run_lint_command(const Options& options) {
  const RuleSet& rules = load_rules(options);
  const bool compose = is_compose_name(options.file);
  auto text = read_local_file(options.file, (compose ? k_max_compose : k_max_dockerfile) + 1);
  if (!text) throw UsageError(options.file + ": " + unreadable_input(text.error()));
  std::vector<std::string> problems;
  std::vector<LintFinding> findings;
  // A file that is neither a Dockerfile nor a compose file is not "clean":
  // a CI gate must not pass it. Exit 2, with the reason.
  std::optional<std::string> unusable;
  if (!looks_like_text(std::string_view(*text).substr(0, 4096))) {
    unusable = "not a text file";
  } else if (compose) {
    const ComposeFile file = parse_compose(*text);
    problems = file.problems;
    if (file.services.empty() && !problems.empty()) unusable = "not a compose file: " + problems.front();
    findings = lint_compose(file, rules);
  } else {
    const Dockerfile file = parse_dockerfile(*text);
    problems = file.problems;
    if (file.stages.empty()) unusable = "not a Dockerfile: no FROM instruction";
    findings = lint_dockerfile(file, rules);
  }
  if (unusable && std::find(problems.begin(), problems.end(), *unusable) == problems.end()) problems.insert(problems.begin(), *unusable);
  bool failed = false;
  if (options.format == Format::json) {
    boost::json::array list;
    for (const auto& finding : findings) {
      boost::json::object entry{{"rule", finding.rule}, {"severity", severity_name(finding.severity)}, {"file", options.file},
                                {"line", finding.line},  {"message", finding.message},   {"fix", finding.fix},
                                {"source", finding.source}};
      entry["corrected"] = finding.corrected ? boost::json::value(*finding.corrected) : boost::json::value(nullptr);
      list.push_back(std::move(entry));
    }
    boost::json::value document = boost::json::object{{"schema", "gpudoctor-lint/1"}, {"findings", std::move(list)},
                                                      {"problems", boost::json::array(problems.begin(), problems.end())}};
    make_valid_utf8(document);
    std::cout << pretty_json(document);
  } else {
    std::string out;
    const std::string& shown = options.file;
    for (const auto& problem : problems) out += shown + ": " + problem + "\n";
    for (const auto& finding : findings) {
      out += shown + ":" + std::to_string(finding.line) + ": " + severity_name(finding.severity) + " " + finding.rule + ": " +
             finding.message + "\n  fix: " + finding.fix + "\n";
      if (finding.corrected) out += "  corrected: " + *finding.corrected + "\n";
    }
    if (findings.empty() && !unusable) out += shown + ": no GPU mistakes found\n";
    std::cout << terminal_safe(valid_utf8(out));  // a file name or a line may hold escape sequences
  }
  if (unusable) {
    std::cerr << "gpudoctor: " << printable(options.file, 300) << " cannot be linted: " << printable(*unusable, 300) << "\n";
    return 2;
  }
  for (const auto& finding : findings)
    failed = failed || finding.severity == Severity::fail || (options.strict && finding.severity == Severity::warn);
  return failed ? 1 : 0;
}

namespace {

// Where an archive is assembled before it is packed: a new directory beside
// it (the user named that place), removed when done, however it ends, an
// interrupt included.
class StagingDir {
 public:
  explicit StagingDir(const std::string& archive) {
    std::string pattern = archive + ".XXXXXX";
    if (!::mkdtemp(pattern.data())) throw UsageError("cannot create a directory beside " + archive + ": " + std::strerror(errno));
    m_path = pattern;
    m_interrupted.emplace(m_path);
  }
  ~StagingDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
  std::optional<RemoveOnInterrupt> m_interrupted;  // SIGINT or SIGTERM removes it too
};

}  // namespace

int run_snapshot_command(const Options& options) {
  const CheckRules rules = check_rules(options);
  auto inner = make_host(options);
  const std::string& output = *options.output;
  const bool archive = is_archive_name(output);
  // Decided once, here, without following a symlink: a dangling one is something there too.
  std::error_code status_error;
  if (archive && std::filesystem::symlink_status(output, status_error).type() != std::filesystem::file_type::not_found)
    throw UsageError("--output " + output + " exists; gpudoctor does not overwrite it");
  std::optional<StagingDir> staging;
  if (archive) staging.emplace(output);
  const std::string dir = archive ? staging->path() : output;
  prepare_output_dir(dir);
  // Redacted on the way in: nothing identifying reaches the disk, not even
  // the staging directory, and report.json is the redacted machine's report.
  std::optional<RedactingHost> redacting;
  if (options.redact) redacting.emplace(*inner);
  RecordingHost recorder(redacting ? static_cast<Host&>(*redacting) : *inner, dir);
  const Report report = run_check(recorder, rules, probe_options(options));
  if (auto written = recorder.finish(GPUDOCTOR_VERSION); !written)
    throw OutputError("cannot write " + dir + "/snapshot.json");
  std::ofstream(dir + "/report.json") << render_json(report);
  if (archive)
    if (auto packed = pack_snapshot(dir, output); !packed) throw OutputError(packed.error());
  std::cerr << "gpudoctor: snapshot written to " << output << " (" << recorder.files_written()
            << " files); verdict " << status_name(report.verdict) << ".\n";
  if (recorder.files_not_kept() > 0)
    std::cerr << "gpudoctor: " << recorder.files_not_kept() << " file(s) read but not kept: past the "
              << (k_max_unpacked_bytes >> 20) << " MB a snapshot may hold and still replay; the replay reads them as too large (EFBIG).\n";
  if (recorder.variables_not_kept() > 0)
    std::cerr << "gpudoctor: " << recorder.variables_not_kept() << " environment variable(s) read but not kept, the longest: with them "
              << "snapshot.json would pass the " << (k_max_snapshot_json >> 20) << " MB it may hold; the replay reads them as unset.\n";
  if (report.redacted)
    std::cerr << "gpudoctor: redacted: "
              << (report.redacted->empty() ? std::string("nothing identifying was found") : joined_list(*report.redacted))
              << " (placeholders of the same length; --no-redact keeps them).\n";
  else
    std::cerr << "gpudoctor: not redacted (--no-redact): it holds this machine's names, UUIDs and addresses.\n";
  std::cerr << "Replay it with: gpudoctor check --replay " << output << "\n";
  return 0;
}

// The outcomes a rule predicts, in order: "cuda", or "nvml, cuda or application".
std::vector<std::string> predicted_outcomes(const Rule& rule) {
  std::vector<std::string> ids;
  for (const auto& prediction : rule.predicts)
    if (std::find(ids.begin(), ids.end(), prediction.outcome) == ids.end()) ids.push_back(prediction.outcome);
  return ids;
}

std::string prediction_line(const RuleSet& rules, const Rule& rule) {
  const auto ids = predicted_outcomes(rule);
  if (ids.empty()) return {};
  std::string out = "- predicts: `" + joined_list(ids) + "`";
  if (ids.size() == 1) out += " (" + rules.find_outcome(ids.front())->means + ")";
  else out += ", by what the finding is about";
  if (!rule.if_works.empty()) out += "; where the run shows it working: " + rule.if_works;
  if (rule.unless_explained) out += "; only where no other failure predicts it";
  return out + "\n";
}

// "reset-gpu", "the Xid's (item.action), else inspect-hardware", "fix-configuration (the layer's default)".
std::string action_words(const Rule& rule) {
  std::string out = enum_name(rule.action);
  if (!rule.action_fact.empty()) return "the one " + rule.action_fact + " names, else " + out;
  if (!rule.action_stated && rule.severity != Severity::info) out += " (the layer's default)";
  return out;
}

// "- {fact} says, by its value: `a`: words; `b`: words", one line per fact the rule has phrases for.
std::string phrase_lines(const Rule& rule) {
  std::string out;
  for (const auto& [fact, words] : rule.phrases) {
    out += "- {" + fact + "} says, by its value:";
    bool first = true;
    for (const auto& [value, text] : words) {
      out += std::string(first ? " " : "; ") + "`" + value + "`: " + text;
      first = false;
    }
    out += "\n";
  }
  return out;
}

// docs/rules.md is this output; a test keeps the two the same.
std::string rules_markdown(const RuleSet& rules) {
  std::string out = "# Rules\n\nGenerated by `gpudoctor rules --format markdown` from `rules/`; do not edit by hand.\n"
                    "`gpudoctor explain RULE-ID` prints one rule with its condition.\n";
  for (const auto layer : k_layer_ids) {
    bool header = false;
    for (const auto& rule : rules.rules) {
      if (rule.layer != layer) continue;
      if (!header) out += "\n## " + std::string(layer) + "\n";
      header = true;
      out += "\n### `" + rule.id + "` (" + severity_name(rule.severity) + ")\n\n" + rule.message + "\n\n- fix: " + rule.fix +
             "\n" + phrase_lines(rule) + "- action: " + action_words(rule) + "\n" + prediction_line(rules, rule) + "- source: " + rule.source + "\n";
    }
  }
  // `gpudoctor lint`'s checks: {value} and the like are filled from the file.
  for (const auto& [prefix, title] : {std::pair{"dockerfile-", "lint: Dockerfile"}, std::pair{"compose-", "lint: compose file"}}) {
    out += std::string("\n## ") + title + "\n";
    for (const auto& rule : rules.lint)
      if (rule.id.starts_with(prefix))
        out += "\n### `" + rule.id + "` (" + severity_name(rule.severity) + ")\n\n" + rule.message + "\n\n- fix: " + rule.fix +
               "\n- source: " + rule.source + "\n";
  }
  return out;
}

int run_rules_command(const Options& options) {
  const RuleSet& rules = load_rules(options);
  if (options.format == Format::markdown) {
    std::cout << rules_markdown(rules);
    return 0;
  }
  if (options.format == Format::json) {
    boost::json::array list;
    for (const auto& rule : rules.rules) {
      boost::json::object entry{{"id", rule.id}, {"layer", rule.layer}, {"severity", severity_name(rule.severity)},
                                {"fix", rule.fix}, {"action", enum_name(rule.action)}, {"source", rule.source}};
      if (!rule.action_fact.empty()) entry["action_from"] = rule.action_fact;
      if (const auto ids = predicted_outcomes(rule); !ids.empty()) entry["predicts"] = boost::json::array(ids.begin(), ids.end());
      list.push_back(std::move(entry));
    }
    std::cout << pretty_json(boost::json::object{{"schema", "gpudoctor-rules/1"}, {"rules", std::move(list)}});
    return 0;
  }
  for (const auto& rule : rules.rules)
    std::cout << rule.id << "  (" << rule.layer << ", " << severity_name(rule.severity) << ")\n";
  for (const auto& rule : rules.lint) std::cout << rule.id << "  (lint, " << severity_name(rule.severity) << ")\n";
  return 0;
}

// `gpudoctor explain 804` or `explain cudaErrorCompatNotSupportedOnDevice`:
// an error code's meaning and the layer its cause lives in.
bool explain_error_code(const RuleSet& rules, const std::string& wanted) {
  bool found = false;
  for (const auto& code : rules.tables.cuda.error_codes()) {
    const std::string number = std::to_string(code.code);
    if (wanted != number && code.name.find(wanted) == std::string::npos) continue;
    std::cout << code.api << " error " << number << ": " << code.name << "\n  layer:   " << code.layer
              << "\n  meaning: " << code.meaning << "\n";
    found = true;
  }
  if (found) std::cout << "  source:  " << rules.tables.cuda.error_codes_source() << "\n";
  return found;
}

// Pasted error text: what it means, where its cause lives, what to check;
// with --replay, --root or --here, which of the candidate causes holds there.
int explain_pasted_text(const Options& options, const RuleSet& rules) {
  std::string text = options.rule_id;
  if (text == "-") {  // a log on stdin, bounded like every input: an endless stream is read only so far
    constexpr std::size_t k_max_pasted = 1 << 20;
    text.assign(k_max_pasted + 1, '\0');
    std::cin.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(std::cin.gcount()));
    if (text.size() > k_max_pasted) {
      text.resize(k_max_pasted);
      std::cerr << "gpudoctor: explain read the first 1 MiB of standard input and no more\n";
    }
  }
  const auto matches = match_signatures(rules.signatures, text);
  if (matches.empty()) {
    std::cout << "gpudoctor knows no error message in that text. `gpudoctor check` diagnoses this machine; "
                 "`gpudoctor explain CODE` explains a CUDA or NVML error number.\n";
    return 1;
  }
  std::optional<Report> report;
  if (options.replay || options.root || options.here) {
    auto host = make_host(options);
    report = run_check(*host, rules, probe_options(options));
  }
  std::set<std::string> fired;
  if (report)
    for (const auto& layer : report->layers)
      for (const auto& finding : layer.findings) fired.insert(finding.rule);
  for (const auto* signature : matches) {
    std::cout << signature->id << " (layer " << signature->layer << ")\n  meaning: " << signature->meaning
              << "\n  check:   " << signature->check << "\n";
    if (!signature->rules.empty()) {
      std::cout << "  causes:  ";
      for (std::size_t i = 0; i < signature->rules.size(); ++i) std::cout << (i ? ", " : "") << signature->rules[i];
      std::cout << "\n";
    }
    std::cout << "  source:  " << signature->source << "\n";
    if (!report) continue;
    std::vector<std::string> holding;
    for (const auto& id : signature->rules)
      if (fired.count(id)) holding.push_back(id);
    if (holding.empty()) std::cout << "  here:    none of these causes holds\n";
    else std::cout << "  here:    " << joined_list(holding) << (holding.size() == 1 ? " holds" : " hold") << "\n";
  }
  if (report) std::cout << "\ngpudoctor check here: " << verdict_line(*report) << "\n";
  return 0;
}

int run_explain_command(const Options& options) {
  const RuleSet& rules = load_rules(options);
  const Rule* rule = rules.find(options.rule_id);
  if (!rule && explain_error_code(rules, options.rule_id)) return 0;
  if (!rule) return explain_pasted_text(options, rules);
  std::cout << rule->id << "\n  layer:    " << rule->layer << "\n  severity: " << severity_name(rule->severity)
            << "\n  message:  " << rule->message << "\n  fix:      " << rule->fix << "\n  source:   " << rule->source
            << "\n  defined:  rules/" << rule->file << "\n  when:     " << boost::json::serialize(condition_json(rule->when)) << "\n";
  if (!rule->for_each.empty()) std::cout << "  for each: " << rule->for_each << "\n";
  for (const auto& [fact, words] : rule->phrases) {
    std::cout << "  {" << fact << "} by its value:\n";
    for (const auto& [value, text] : words) std::cout << "    " << value << ": " << text << "\n";
  }
  if (const auto ids = predicted_outcomes(*rule); !ids.empty()) {
    std::cout << "  predicts: " << joined_list(ids) << "\n";
    if (!rule->if_works.empty()) std::cout << "  if works: " << rule->if_works << "\n";
  }
  return 0;
}

int run_resolve_command(const Options& options) {
  auto host = make_host(options);
  // Under --root and --replay the path is inside that system; live, a
  // relative path is taken from the current directory.
  std::string file = options.file;
  if (!options.root && !options.replay && !file.starts_with("/")) file = std::filesystem::absolute(file).string();
  auto main = read_elf(*host, file);
  if (!main) throw UsageError(main.error());
  const auto mode = host->stat(file);
  auto config = detect_loader_config(*host, *main, mode ? mode->mode : 0);
  if (!options.root && !options.replay) config.cwd = std::filesystem::current_path().string();
  LoadSimulation simulation(*host, std::move(config));
  simulation.load_main(file, std::move(*main));
  if (options.format == Format::json) {
    boost::json::value document = resolutions_to_json(file, simulation);
    make_valid_utf8(document);  // a file name may hold any bytes
    std::cout << pretty_json(document);
  } else {
    std::cout << terminal_safe(valid_utf8(render_resolutions_text(file, simulation, options.verbose)));
  }
  for (const auto& resolution : simulation.resolutions())
    if (!resolution.path) return 1;
  return 0;
}

}  // namespace gd
