// gpudoctor: entry point. Errors in gpudoctor itself end here, as exit 2,
// so they can never be mistaken for a diagnosis (0 ok, 1 fail).

#include "cli/commands.h"
#include "cli/options.h"
#include "gpudoctor_config.h"
#include "facts/fact_reference.h"
#include "child/child_main.h"
#include "snapshot/replay_host.h"
#include "rules/rule_set.h"
#include "util/text.h"

#include <exception>
#include <iostream>

namespace {

int run_command(const gd::Options& options) {
  switch (options.command) {
    case gd::Command::help:
      std::cout << (options.help_about ? gd::command_usage(*options.help_about) : std::string(gd::usage_text()));
      return 0;
    case gd::Command::version: std::cout << "gpudoctor " << GPUDOCTOR_VERSION << "\n"; return 0;
    case gd::Command::check: return gd::run_check_command(options);
    case gd::Command::snapshot: return gd::run_snapshot_command(options);
    case gd::Command::gpus: return gd::run_gpus_command(options);
    case gd::Command::diff: return gd::run_diff_command(options);
    case gd::Command::lint: return gd::run_lint_command(options);
    case gd::Command::rules: return gd::run_rules_command(options);
    case gd::Command::facts: std::cout << gd::fact_reference_markdown(); return 0;
    case gd::Command::explain: return gd::run_explain_command(options);
    case gd::Command::resolve: return gd::run_resolve_command(options);
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // A re-executed child (a device open): answers on stdout, never a report.
  if (argc > 1 && std::string(argv[1]) == gd::k_child_command)
    return gd::child_main(std::vector<std::string>(argv + 2, argv + argc));
  try {
    const int status = run_command(gd::parse_options(std::vector<std::string>(argv + 1, argv + argc)));
    // An answer that could not be written (a full disk, a closed pipe where
    // SIGPIPE is ignored) is no answer: gpudoctor could not do what was asked.
    gd::check_output_written();
    return status;
  } catch (const gd::UsageError& error) {
    std::cerr << "gpudoctor: " << gd::terminal_safe(error.what()) << "\n(see gpudoctor --help)\n";
  } catch (const gd::RuleError& error) {
    std::cerr << "gpudoctor: bad rules: " << gd::terminal_safe(error.what()) << "\n";
  } catch (const gd::OutputError& error) {
    std::cerr << "gpudoctor: " << gd::terminal_safe(error.what()) << "\n";
  } catch (const gd::SnapshotError& error) {
    std::cerr << "gpudoctor: bad snapshot: " << gd::terminal_safe(error.what()) << "\n";
  } catch (const std::exception& error) {
    std::cerr << "gpudoctor: internal error: " << gd::terminal_safe(error.what()) << "\n";
  }
  return 2;
}
