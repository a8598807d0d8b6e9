#include "cli/options.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <fstream>

using gd::parse_options;

TEST_CASE("check is the default command and options take values either way") {
  auto options = parse_options({"--format", "json", "--color=never", "-v"});
  CHECK(options.command == gd::Command::check);
  CHECK(options.format == gd::Format::json);
  CHECK(options.color == gd::ColorChoice::never);
  CHECK(options.verbose);
  CHECK(parse_options({"check", "--replay=snap"}).replay == "snap");
  CHECK(parse_options({"explain", "no-nvidia-gpu"}).rule_id == "no-nvidia-gpu");
}

TEST_CASE("bad usage is a UsageError") {
  CHECK_THROWS_AS(parse_options({"--format", "xml"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"--root"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"--root", "a", "--replay", "b"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"snapshot"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"frobnicate"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"--bogus"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"explain"}), gd::UsageError);
}

TEST_CASE("an empty --output is refused, never taken as the file system's root") {
  CHECK_THROWS_AS(gd::parse_options({"snapshot", "--output", ""}), gd::UsageError);
}

TEST_CASE("per-command help: `check --help` and `help lint` show that command's options only") {
  CHECK(gd::parse_options({"check", "--help"}).help_about == gd::Command::check);
  CHECK(gd::parse_options({"help", "lint"}).help_about == gd::Command::lint);
  CHECK_FALSE(gd::parse_options({"--help"}).help_about);
  const auto check = gd::command_usage(gd::Command::check);
  CHECK(check.find("usage: gpudoctor check") != std::string::npos);
  CHECK(check.find("--host-driver") != std::string::npos);
  CHECK(check.find("--output") != std::string::npos);  // check writes its report to a file too
  CHECK(check.find("--no-redact") == std::string::npos);
  const auto lint = gd::command_usage(gd::Command::lint);
  CHECK(lint.find("--strict") != std::string::npos);
  CHECK(lint.find("--smoke") == std::string::npos);
  CHECK(gd::command_usage(gd::Command::snapshot).find("--output DIR") != std::string::npos);
  CHECK(gd::command_usage(gd::Command::snapshot).find("--no-redact") != std::string::npos);
  CHECK_THROWS_AS(gd::parse_options({"check", "--no-redact"}), gd::UsageError);
  CHECK_THROWS_AS(gd::parse_options({"gpus", "--output", "x"}), gd::UsageError);
}

TEST_CASE("--every takes 1 to 86400 seconds, with --output, for check only") {
  CHECK(parse_options({"check", "--output", "f", "--every", "300"}).every_seconds == 300);
  for (const char* bad : {"0", "86401", "-5", "5s", "", "99999999999999999999999"})
    CHECK_THROWS_AS(parse_options({"check", "--output", "f", "--every", bad}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"check", "--every", "300"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"gpus", "--every", "300"}), gd::UsageError);
}

TEST_CASE("one table: an option another command owns is refused by name, typos get the nearest, -- ends options") {
  CHECK_THROWS_WITH_AS(parse_options({"resolve", "/bin/sh", "--strict"}), "--strict is not an option of resolve (`gpudoctor resolve --help` lists them)",
                       gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"--strict", "resolve", "/bin/sh"}), doctest::Contains("not an option of resolve"), gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"check", "--stirct"}), "unknown option '--stirct' (did you mean --strict?)", gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"chekc"}), doctest::Contains("(did you mean check?)"), gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"--frobnicate-everything"}), "unknown option '--frobnicate-everything'", gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"gpus", "--format", "markdown"}), "--format for gpus is text, json or csv, not 'markdown'", gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"check", "--format", "xml"}), "--format for check is text, json, markdown, prometheus or line, not 'xml'",
                       gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"explain", "--format", "json", "x"}), doctest::Contains("--format is not an option of explain"), gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"check", "--strict=yes"}), "--strict takes no value", gd::UsageError);
  CHECK(parse_options({"explain", "--", "--not-an-option"}).rule_id == "--not-an-option");
  CHECK(parse_options({"lint", "--", "-weird.Dockerfile"}).file == "-weird.Dockerfile");
  CHECK(parse_options({"--", "gpus"}).command == gd::Command::gpus);
  CHECK(parse_options({"--format", "json", "gpus"}).command == gd::Command::gpus);  // a value is no command
  CHECK(parse_options({"check", "--colour", "never"}).color == gd::ColorChoice::never);
  CHECK(parse_options({"check", "--format=md"}).format == gd::Format::markdown);
}

TEST_CASE("help comes from the same table: each command lists exactly its options, --format with its own formats") {
  const auto gpus = gd::command_usage(gd::Command::gpus);
  CHECK(gpus.find("--format text|json|csv") != std::string::npos);
  CHECK(gpus.find("--strict") == std::string::npos);
  CHECK(gd::command_usage(gd::Command::resolve).find("--format text|json ") != std::string::npos);
  const auto all = gd::usage_text();
  CHECK(all.find("  -v, --verbose") != std::string::npos);
  CHECK(all.find("  --color, --colour auto|always|never") != std::string::npos);
  CHECK(all.find("\n  --  ") != std::string::npos);
  for (const char* command : {"check", "snapshot", "lint", "diff", "gpus", "rules", "facts", "explain", "resolve"})
    CHECK(all.find(std::string("\n  ") + command + " ") != std::string::npos);
}

TEST_CASE("options after --help are judged against the command named, not against help") {
  const auto options = parse_options({"check", "--help", "--format", "json"});
  CHECK(options.command == gd::Command::help);
  CHECK(options.help_about == gd::Command::check);
}

TEST_CASE("gpus --watch takes 1 to 86400 seconds, live only") {
  CHECK(parse_options({"gpus", "--watch", "5", "--format", "csv"}).watch_seconds == 5);
  CHECK_THROWS_AS(parse_options({"gpus", "--watch", "0"}), gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"check", "--watch", "5"}), doctest::Contains("--watch is not an option of check"), gd::UsageError);
  CHECK_THROWS_WITH_AS(parse_options({"gpus", "--watch", "5", "--replay", "snap"}), doctest::Contains("a replay or a --root directory never changes"),
                       gd::UsageError);
}

TEST_CASE("--expect: gpus=N inline or from a file of KEY=VALUE lines; anything else is bad usage") {
  CHECK(parse_options({"check", "--expect", "gpus=8"}).expected_gpus == 8);
  CHECK(parse_options({"check", "--expect=gpus=4"}).expected_gpus == 4);
  gd::TempDir dir;
  const std::string file = dir / "expect";
  {
    std::ofstream out(file);
    out << "# the p5.48xlarge inventory\n\ngpus = 8  # H100 SXM\n";
  }
  CHECK(parse_options({"check", "--expect", file}).expected_gpus == 8);
  const auto both = parse_options({"check", "--expect", "gpus=8, ib-ports=4"});
  CHECK(both.expected_gpus == 8);
  CHECK(both.expected_ib_ports == 4);
  CHECK_THROWS_AS(parse_options({"check", "--image", "--expect", "gpus=8"}), gd::UsageError);
  for (const char* bad : {"gpus=0", "gpus=1025", "gpus=eight", "nvlinks=18", "gpus=", "ib-ports=-1"})
    CHECK_THROWS_AS(parse_options({"check", "--expect", bad}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"check", "--expect", dir / "missing"}), gd::UsageError);
  CHECK_THROWS_AS(parse_options({"lint", "Dockerfile", "--expect", "gpus=8"}), gd::UsageError);
}
