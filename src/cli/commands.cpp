#include "cli/commands.h"

#include "check/run_check.h"
#include "gpudoctor_config.h"
#include "host/live_host.h"
#include "host/recording_host.h"
#include "host/replay_host.h"
#include "elf/load_simulation.h"
#include "report/renderers.h"
#include "report/resolution_report.h"
#include "util/json_pretty.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace gd {

namespace {

RuleSet load_rules(const Options& options) {
  return options.rules_dir ? load_rules_dir(*options.rules_dir) : load_embedded_rules();
}

std::unique_ptr<Host> make_host(const Options& options) {
  if (options.replay) return std::make_unique<ReplayHost>(*options.replay);
  if (options.root) {
    if (!std::filesystem::is_directory(*options.root)) throw UsageError("--root " + *options.root + " is not a directory");
    return std::make_unique<LiveHost>(std::filesystem::absolute(*options.root).string());
  }
  return std::make_unique<LiveHost>("/");
}

void print_report(const Report& report, const Options& options) {
  switch (options.format) {
    case Format::json: std::cout << render_json(report); break;
    case Format::markdown: std::cout << render_markdown(report); break;
    case Format::text:
      std::cout << render_text(report, decide_terminal_style(options.color),
                               options.verbose ? Verbosity::verbose : Verbosity::normal);
      break;
  }
}

int exit_status(const Report& report) { return report.verdict == Status::fail ? 1 : 0; }

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

}  // namespace

int run_check_command(const Options& options) {
  const RuleSet rules = load_rules(options);
  auto host = make_host(options);
  const Report report = run_check(*host, rules);
  print_report(report, options);
  return exit_status(report);
}

int run_snapshot_command(const Options& options) {
  const RuleSet rules = load_rules(options);
  auto inner = make_host(options);
  prepare_output_dir(*options.output);
  RecordingHost recorder(*inner, *options.output);
  const Report report = run_check(recorder, rules);
  if (auto written = recorder.finish(GPUDOCTOR_VERSION); !written)
    throw std::runtime_error("cannot write " + *options.output + "/snapshot.json");
  std::ofstream(*options.output + "/report.json") << render_json(report);
  std::cerr << "gpudoctor: snapshot written to " << *options.output << " (" << recorder.files_written()
            << " files); verdict " << status_name(report.verdict)
            << ". Replay it with: gpudoctor check --replay " << *options.output << "\n";
  return 0;
}

int run_rules_command(const Options& options) {
  const RuleSet rules = load_rules(options);
  if (options.format == Format::json) {
    boost::json::array list;
    for (const auto& rule : rules.rules)
      list.push_back(boost::json::object{{"id", rule.id}, {"layer", rule.layer},
                                         {"severity", severity_name(rule.severity)}, {"fix", rule.fix},
                                         {"source", rule.source}});
    std::cout << pretty_json(boost::json::object{{"rules", std::move(list)}});
    return 0;
  }
  for (const auto& rule : rules.rules)
    std::cout << rule.id << "  (" << rule.layer << ", " << severity_name(rule.severity) << ")\n";
  return 0;
}

int run_explain_command(const Options& options) {
  const RuleSet rules = load_rules(options);
  const Rule* rule = rules.find(options.rule_id);
  if (!rule) throw UsageError("no rule '" + options.rule_id + "'; `gpudoctor rules` lists them");
  std::cout << rule->id << "\n  layer:    " << rule->layer << "\n  severity: " << severity_name(rule->severity)
            << "\n  message:  " << rule->message << "\n  fix:      " << rule->fix << "\n  source:   " << rule->source
            << "\n  defined:  rules/" << rule->file << "\n  when:     " << boost::json::serialize(rule->when) << "\n";
  if (!rule->for_each.empty()) std::cout << "  for each: " << rule->for_each << "\n";
  return 0;
}

int run_resolve_command(const Options& options) {
  auto host = make_host(options);
  // Under --root and --replay the path is inside that system; live, a
  // relative path is taken from the current directory.
  std::string file = options.file;
  if (!options.root && !options.replay && !file.starts_with("/")) file = std::filesystem::absolute(file).string();
  auto main = read_elf(*host, file);
  if (main.error) throw UsageError(main.error->message);
  const auto mode = host->stat(file);
  LoadSimulation simulation(*host, detect_loader_config(*host, *main.info, mode ? mode->mode : 0));
  if (auto error = simulation.load_main(file)) throw UsageError(error->message);
  if (options.format == Format::json)
    std::cout << pretty_json(resolutions_to_json(file, simulation));
  else
    std::cout << render_resolutions_text(file, simulation, options.verbose);
  for (const auto& resolution : simulation.resolutions())
    if (!resolution.path) return 1;
  return 0;
}

}  // namespace gd
