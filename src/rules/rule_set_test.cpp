#include "rules/rule_set.h"

#include "model/layers.h"
#include "rules/evaluator.h"
#include "rules/message_template.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace {

const char* k_chips = R"({"table": "pci-chips", "source": "test", "rows": [{"chip": "GH100", "first": "2302", "last": "23f0", "cc": "9.0", "architecture": "Hopper"}]})";

const char* k_drivers = R"({"table": "cuda-drivers", "source": "test",
  "toolkits": [{"cuda": "12.4", "linux_min": "550.54.14"}],
  "minor_version_compatibility": [{"major": 12, "linux_min": "525.60.13"}],
  "branches": [{"branch": 550, "cuda": "12.4"}],
  "architectures": [{"major": 12, "min_cc": "5.0"}]})";
const char* k_forward = R"({"table": "forward-compat", "source": "test", "packages": [], "unsupported_brands": ["geforce"]})";
const char* k_errors = R"({"table": "error-codes", "source": "test", "codes": []})";
// One outcome seen live ("cuda": the fact driver-libs.init_result), one only predicted.
const char* k_outcomes = R"json({"table": "outcomes", "source": "test", "outcomes": [
  {"id": "cuda", "means": "CUDA cannot start",
   "works": {"fact": "driver-libs.init_result", "eq": 0}, "works_says": "cuInit gave {driver-libs.device_count} device(s)",
   "fails": {"fact": "driver-libs.init_result", "ne": 0}, "fails_says": "cuInit failed"},
  {"id": "application", "means": "a framework fails"}]})json";
const char* k_installs = R"({"table": "framework-installs", "source": "test", "frameworks": [
  {"framework": "*", "gpu_code": "build for sm_{arch}", "other_build": "a CUDA {driver_major} build"}]})";

std::vector<gd::RuleFile> with_tables(std::vector<gd::RuleFile> files) {
  for (auto [name, text] : {std::pair{"tables/pci-chips.json", k_chips}, {"tables/cuda-drivers.json", k_drivers},
                            {"tables/forward-compat.json", k_forward}, {"tables/error-codes.json", k_errors},
                            {"tables/framework-installs.json", k_installs}, {"tables/outcomes.json", k_outcomes},
                            {"tables/error-signatures.json", R"({"table": "error-signatures", "source": "t", "signatures": []})"}})
    if (std::none_of(files.begin(), files.end(), [wanted = name](const gd::RuleFile& file) { return file.name == wanted; }))
      files.push_back({name, text});
  return files;
}

std::string error_of_files(const std::vector<gd::RuleFile>& files) {
  try {
    gd::load_rule_files(with_tables(files));
  } catch (const gd::RuleError& error) {
    return error.what();
  }
  return "";
}

std::string error_of(const std::string& rules_text) {
  try {
    gd::load_rule_files(with_tables({{"layers/test.json", rules_text}}));
  } catch (const gd::RuleError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the built-in rules load, with unique ids, known layers, sources and fixes") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  CHECK(rules.rules.size() >= 30);
  CHECK(rules.tables.chips.size() > 40);
  std::set<std::string> ids;
  for (const auto& rule : rules.rules) {
    CAPTURE(rule.id);
    CHECK(ids.insert(rule.id).second);
    CHECK(gd::is_layer_id(rule.layer));
    CHECK_FALSE(rule.source.empty());
    CHECK_FALSE(rule.fix.empty());
  }
  CHECK(rules.find("no-nvidia-gpu") != nullptr);
  CHECK(rules.find("no-such-rule") == nullptr);
}

TEST_CASE("the chip table finds the narrowest range and knows architectures") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  CHECK(rules.tables.chips.lookup(0x2330)->chip == "GH100");
  CHECK(rules.tables.chips.lookup(0x2330)->compute_capability == "9.0");
  CHECK(rules.tables.chips.lookup(0x1b80)->architecture == gd::GpuArchitecture::Pascal);
  CHECK(rules.tables.chips.lookup(0x130b)->chip == "GK110B");  // inside GM107's range too, but narrower
  CHECK(rules.tables.chips.lookup(0x2b85)->first_branch == 570);
  CHECK(rules.tables.chips.lookup(0x1024)->last_branch == 470);
  CHECK_FALSE(rules.tables.chips.lookup(0x0001));
}

TEST_CASE("a table row naming an architecture, brand or class gpudoctor does not know is refused at load") {
  const char* chips = R"({"table": "pci-chips", "source": "t", "rows": [{"chip": "GH100", "first": "2302", "last": "23f0", "cc": "9.0", "architecture": "Hoper"}]})";
  CHECK(error_of_files({{"tables/pci-chips.json", chips}}) ==
        "tables/pci-chips.json:1: pci-chips row for \"GH100\": \"architecture\" is none of Kepler, Maxwell, Pascal, Volta, Turing, Ampere, Ada, Hopper or Blackwell");
  gd::ChipTable table;
  CHECK(table.load_products("2330\ttesla\tdatacenter\tH100\n2331\tteslla\tdatacenter\tX\n").error() == "line 2: unknown brand \"teslla\"");
  CHECK(table.load_products("2330\ttesla\tdatacentre\tH100\n").error() == "line 1: unknown class \"datacentre\"");
  REQUIRE(table.load_products("2330\ttesla\tdatacenter\tH100\n"));
  CHECK(table.product(0x2330)->brand == gd::GpuBrand::tesla);
}

TEST_CASE("a bad rules file is an error naming the file and the line") {
  SUBCASE("broken JSON") {
    CHECK(error_of("{\n  \"rules\": [\n    {,\n  ]\n}") .find("layers/test.json:3:") == 0);
  }
  SUBCASE("unknown layer") {
    const std::string text = "{\"rules\": [\n{\"id\": \"x\", \"layer\": \"gpu\", \"severity\": \"fail\", \"when\": {\"fact\": \"a.b\", \"eq\": 1},"
                             " \"message\": \"m\", \"fix\": \"f\", \"source\": \"s\"}]}";
    CHECK(error_of(text) == "layers/test.json:2: rule \"x\": unknown layer \"gpu\" of subject host");
  }
  SUBCASE("bad operator") {
    const std::string text = "{\"rules\": [\n\n{\"id\": \"y\", \"layer\": \"hardware\", \"severity\": \"warn\", \"when\": {\"fact\": \"a.b\", \"is\": 1},"
                             " \"message\": \"m\", \"fix\": \"f\", \"source\": \"s\"}]}";
    CHECK(error_of(text).find("layers/test.json:3: rule \"y\": unknown operator") == 0);
  }
  SUBCASE("missing source") {
    const std::string text = R"({"rules": [{"id": "z", "layer": "hardware", "severity": "warn", "when": {"fact": "a.b", "eq": 1}, "message": "m", "fix": "f"}]})";
    CHECK(error_of(text).find("needs a non-empty \"source\"") != std::string::npos);
  }
  SUBCASE("duplicate id") {
    const std::string rule = R"({"id": "d", "layer": "hardware", "severity": "warn", "when": {"fact": "a.b", "eq": 1}, "message": "m", "fix": "f", "source": "s"})";
    CHECK(error_of("{\"rules\": [" + rule + "," + rule + "]}").find("used twice") != std::string::npos);
  }
}

TEST_CASE("message templates fill facts, fall back, and keep braces they cannot read") {
  boost::json::object system{{"platform", "linux"}, {"groups", boost::json::array{27, 44}}};
  gd::FactLayers layers;
  gd::FactView view(system, layers);
  CHECK(gd::render_template("on {system.platform}", view) == "on linux");
  CHECK(gd::render_template("groups {system.groups}", view) == "groups 27, 44");
  CHECK(gd::render_template("{system.nothing|a fallback}", view) == "a fallback");
  CHECK(gd::render_template("{system.nothing}", view) == "unknown");
  CHECK(gd::render_template("open { brace", view) == "open { brace");
  // A fact the rule has phrases for prints the words for its value; other facts print as they are.
  const gd::Phrases phrases{{"system.platform", {{"linux", "plain Linux"}, {"wsl2", "WSL2"}}}};
  CHECK(gd::render_template("on {system.platform}, groups {system.groups}", view, &phrases) == "on plain Linux, groups 27, 44");
  CHECK(gd::render_template("{system.nothing|a fallback}", view, &phrases) == "a fallback");
}

TEST_CASE("phrases are text for values, without placeholders of their own") {
  const auto rule = [](const std::string& phrases) {
    return R"({"rules": [{"id": "a", "layer": "hardware", "severity": "warn", "when": {"fact": "hardware.gpu_count", "eq": 0},
      "message": "m", "fix": "f", "source": "s", "phrases": )" + phrases + "}]}";
  };
  CHECK(error_of(rule(R"({"system.platform": {"linux": "plain Linux"}})")) == "");
  CHECK(error_of(rule(R"({"system.platform": {"linux": "on {system.kernel_release}"}})")).find("hold no placeholder") != std::string::npos);
  CHECK(error_of(rule(R"({"system.platform": {"linux": 1}})")).find("are text") != std::string::npos);
  CHECK(error_of(rule(R"({"system.platform": {}})")).find("an object of values and their words") != std::string::npos);
  CHECK(error_of(rule(R"(["linux"])")).find("\"phrases\" is an object") != std::string::npos);
  // The built-in rule that says why --smoke ran no kernel has words for every reason.
  const auto builtin = gd::load_embedded_rules();
  CHECK(builtin.find("smoke-test-not-run")->phrases.at("driver-libs.smoke_not_run").at("static-build").starts_with("this is the static build"));
}

TEST_CASE("a malformed table row is refused at load, naming the file and the row") {
  const std::string drivers_bad = std::string(k_drivers).replace(std::string(k_drivers).find("\"12.4\", \"linux_min\""), 6, "\"12.x\"");
  const auto error = error_of_files({{"tables/cuda-drivers.json", drivers_bad}});
  CHECK(error.find("tables/cuda-drivers.json") != std::string::npos);
  CHECK(error.find("toolkits row 1") != std::string::npos);
  CHECK(error.find("12.x") != std::string::npos);

  const auto forward = error_of_files({{"tables/forward-compat.json",
      R"({"table": "forward-compat", "source": "t", "packages": [{"cuda": "12.9", "hosts": [535, "570"]}], "unsupported_brands": []})"}});
  CHECK(forward.find("packages row 1") != std::string::npos);

  const auto products = error_of_files({{"tables/pci-products.tsv", "# comment\n2330\ttesla\tdatacenter\tH100\n2331\tTesla!\tdatacenter\tH100 PCIe\n"}});
  CHECK(products.find("tables/pci-products.tsv") != std::string::npos);
  CHECK(products.find("line 3") != std::string::npos);
  CHECK(products.find("Tesla!") != std::string::npos);
  CHECK(error_of_files({{"tables/pci-products.tsv", "2331\ttesla\tdatacenter\tB\n2330\ttesla\tdatacenter\tA\n"}})
            .find("ascend") != std::string::npos);

  CHECK(error_of_files({{"tables/error-codes.json", R"({"table": "error-codes", "source": "t", "codes": [{"code": "x"}]})"}})
            .find("codes row 1") != std::string::npos);
  CHECK(error_of_files({{"tables/other.json", R"({"table": "other", "source": "t"})"}}).find("unknown table") != std::string::npos);
}

TEST_CASE("a rule set without one of the CUDA tables is refused") {
  try {
    gd::load_rule_files({{"tables/pci-chips.json", k_chips}});
    FAIL("loaded without the CUDA tables");
  } catch (const gd::RuleError& error) {
    CHECK(std::string(error.what()).find("cuda-drivers") != std::string::npos);
  }
}

TEST_CASE("a rule names its subject, and its layer must be one of that subject's") {
  CHECK(error_of(R"({"rules": [{"id": "a", "subject": "host", "layer": "hardware", "severity": "warn", "when": {"fact": "hardware.gpu_count", "eq": 0},
    "message": "m", "fix": "f", "source": "s"}]})") == "");
  CHECK(error_of(R"({"rules": [{"id": "a", "subject": "boat", "layer": "hardware", "severity": "warn", "when": {"fact": "hardware.gpu_count", "eq": 0},
    "message": "m", "fix": "f", "source": "s"}]})").find("\"subject\" can only be host") != std::string::npos);
  // An image is reported through the host's rules, regrouped: no rule is written against it.
  CHECK(error_of(R"({"rules": [{"id": "a", "subject": "image", "layer": "target-host", "severity": "warn", "when": {"fact": "hardware.gpu_count", "eq": 0},
    "message": "m", "fix": "f", "source": "s"}]})").find("\"subject\" can only be host") != std::string::npos);
}

TEST_CASE("a rule's action is one of the closed set, an info rule's none, and one a fact carries names a fact") {
  const auto rule = [](const std::string& severity, const std::string& action) {
    return R"({"rules": [{"id": "a", "layer": "hardware", "severity": ")" + severity +
           R"(", "when": {"fact": "hardware.gpu_count", "eq": 0}, "message": "m", "fix": "f", "source": "s")" +
           (severity == "fail" ? R"(, "predicts": "cuda")" : "") + (action.empty() ? "" : ", \"action\": " + action) + "}]}";
  };
  CHECK(error_of(rule("fail", R"("reset-gpu")")) == "");
  CHECK(error_of(rule("fail", R"("reboot")")).find("\"action\" is one of none, restart-workload") != std::string::npos);
  CHECK(error_of(rule("info", R"("reset-gpu")")).find("an info rule's action is none") != std::string::npos);
  CHECK(error_of(rule("warn", R"({"fact": "hardware.gpu_count"})")).find("{\"fact\": PATH, \"else\": ACTION}") != std::string::npos);
  // Unsaid, the layer decides: hardware is the hardware's, elsewhere the configuration's.
  const auto loaded = gd::load_rule_files(with_tables({{"layers/test.json", rule("fail", "")}}));
  CHECK(loaded.find("a")->action == gd::Action::inspect_hardware);
  const auto builtin = gd::load_embedded_rules();
  CHECK(builtin.find("driver-too-old-for-runtime")->action == gd::Action::fix_configuration);
  CHECK(builtin.find("nvml-version-mismatch")->action == gd::Action::reboot_node);
  CHECK(builtin.find("gpu-xid-needs-recovery")->action_fact == "item.action");
}

TEST_CASE("a rule marks the findings that say a request went unmet (--strict exits 2 on them), and only with true or false") {
  const auto rule = [](const std::string& unmet) {
    return R"({"rules": [{"id": "a", "layer": "hardware", "severity": "warn", "when": {"fact": "hardware.gpu_count", "eq": 0},
      "message": "m", "fix": "f", "source": "s", "unmet_request": )" + unmet + "}]}";
  };
  CHECK(error_of(rule("true")) == "");
  CHECK(error_of(rule("\"yes\"")).find("\"unmet_request\" is true or false") != std::string::npos);
  CHECK(gd::load_rule_files(with_tables({{"layers/test.json", rule("true")}})).find("a")->unmet_request);
  const auto builtin = gd::load_embedded_rules();
  CHECK(builtin.find("smoke-test-not-run")->unmet_request);
  CHECK_FALSE(builtin.find("driver-too-old-for-runtime")->unmet_request);
}

TEST_CASE("a fallback may hold placeholders: they are filled where the fact it stands for is missing") {
  CHECK(error_of(R"({"rules": [{"id": "n", "layer": "hardware", "severity": "warn", "when": {"fact": "hardware.gpu_count", "eq": 0},
    "message": "m", "fix": "at least {item.a|the first of CUDA {item.b}}", "source": "s"}]})") == "");
  boost::json::object system{{"platform", "linux"}, {"kernel_release", "6.1"}};
  gd::FactLayers layers;
  gd::FactView view(system, layers);
  CHECK(gd::render_template("a build {system.nothing|for {system.platform} {system.kernel_release}}.", view) == "a build for linux 6.1.");
  CHECK(gd::render_template("{system.platform|for {system.nothing}}", view) == "linux");
  CHECK(gd::render_template("{system.nothing|for {system.none|{system.platform}}}", view) == "for linux");
  CHECK(gd::render_template("{system.nothing|for {system.none}}", view) == "for unknown");
  // A brace no brace closes is text, with all that follows it, as before.
  CHECK(gd::render_template("{system.nothing|for {system.platform}", view) == "{system.nothing|for {system.platform}");
}

TEST_CASE("every rule cites public documents a user can follow, not our research notes") {
  const gd::RuleSet rules = gd::load_embedded_rules();
  for (const auto& rule : rules.rules) {
    CAPTURE(rule.id);
    CAPTURE(rule.source);
    for (const char* private_reference : {"shared/reference", "failure-catalog", "FC-", ".md ", "Lessons"})
      CHECK(rule.source.find(private_reference) == std::string::npos);
  }
}

TEST_CASE("a --rules file larger than any rule file is refused without being read") {
  gd::TempDir dir;
  dir.write("huge.json", "");
  std::filesystem::resize_file(dir / "huge.json", std::uintmax_t{1} << 30);  // sparse: a gigabyte of nothing
  CHECK_THROWS_WITH_AS(gd::load_rules_dir(dir.path()), doctest::Contains("larger than the 8 MB"), gd::RuleError);
}

TEST_CASE("an error signature naming no rule, or without text to match, is refused") {
  CHECK(error_of_files({{"tables/error-signatures.json", R"({"table": "error-signatures", "source": "t", "signatures": [
    {"id": "s", "match": ["boom"], "layer": "hardware", "meaning": "m", "check": "c", "source": "s", "rules": ["no-such-rule"]}]})"}})
            .find("names \"no-such-rule\", which is no rule") != std::string::npos);
  CHECK(error_of_files({{"tables/error-signatures.json", R"({"table": "error-signatures", "source": "t", "signatures": [
    {"id": "s", "match": [], "layer": "hardware", "meaning": "m", "check": "c", "source": "s", "rules": []}]})"}})
            .find("signatures row 1: \"match\" is empty") != std::string::npos);
}


TEST_CASE("disputed_by: only on fail rules, each entry a condition and what it says") {
  const std::string head = R"({"rules": [{"id": "r", "layer": "hardware", "when": {"fact": "hardware.gpu_count", "eq": 0},
    "message": "m", "fix": "f", "source": "s", "predicts": "cuda", )";
  CHECK(error_of(head + R"("severity": "warn", "disputed_by": [{"when": {"fact": "kernel-module.loaded", "eq": true}, "says": "x"}]}]})")
            .find("only a fail rule can have \"disputed_by\"") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "disputed_by": [{"when": {"fact": "kernel-module.loaded", "eq": true}}]}]})")
            .find("needs \"when\" and \"says\"") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "disputed_by": [{"when": {"fact": "x"}, "says": "y"}]}]})").find("disputed_by:") !=
        std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "disputed_by": [{"when": {"fact": "kernel-module.loaded", "eq": true}, "says": "y"}]}]})") == "");
}

TEST_CASE("a failure that another layer's evidence contradicts is reported as a warning saying what disagrees") {
  const auto rules = gd::load_rule_files(with_tables({{"layers/test.json", R"({"rules": [{"id": "no-gpu", "layer": "hardware",
    "severity": "fail", "predicts": "application", "when": {"fact": "hardware.gpu_count", "eq": 0}, "message": "No GPU.", "fix": "f", "source": "s",
    "disputed_by": [{"when": {"fact": "kernel-module.loaded", "eq": true}, "says": "nvidia {kernel-module.version} is loaded"},
                    {"when": {"fact": "kernel-module.version", "eq": "1.0"}, "says": "never shown"}]}]})"}}));
  auto report_with = [&](bool loaded) {
    gd::Report report;
    report.layers.resize(2);
    report.layers[0].facts.id = "hardware";
    report.layers[0].facts.set("gpu_count", boost::json::value(0));
    report.layers[1].facts.id = "kernel-module";
    report.layers[1].facts.set("loaded", boost::json::value(loaded));
    report.layers[1].facts.set("version", "550.54.15");
    gd::apply_rules(rules, report);
    REQUIRE(report.layers[0].findings.size() == 1);
    return report.layers[0].findings[0];
  };
  const auto disputed = report_with(true);
  CHECK(disputed.severity == gd::Severity::warn);
  CHECK(disputed.disputed_by == std::vector<std::string>{"nvidia 550.54.15 is loaded"});
  CHECK(disputed.message.starts_with("No GPU. Yet nvidia 550.54.15 is loaded: the layers disagree"));
  const auto undisputed = report_with(false);
  CHECK(undisputed.severity == gd::Severity::fail);
  CHECK(undisputed.disputed_by.empty());
  CHECK(undisputed.message == "No GPU.");
}

TEST_CASE("predicts: every fail rule names an outcome of the outcomes table; only fail rules predict") {
  const std::string head = R"({"rules": [{"id": "r", "layer": "hardware", "when": {"fact": "hardware.gpu_count", "eq": 0},
    "message": "m", "fix": "f", "source": "s", )";
  CHECK(error_of(head + R"("severity": "fail"}]})").find("a fail rule says which outcome it predicts") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "predicts": "cuda"}]})") == "");
  CHECK(error_of(head + R"("severity": "fail", "predicts": "cdua"}]})").find("predicts \"cdua\", which is no outcome") != std::string::npos);
  CHECK(error_of(head + R"("severity": "warn", "predicts": "cuda"}]})").find("only a fail rule predicts") != std::string::npos);
  CHECK(error_of(head + R"("severity": "warn", "if_works": "x"}]})").find("need \"predicts\"") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "predicts": [{"when": {"fact": "item.name", "eq": "a"}, "outcome": "cuda"}, {"outcome": "application"}]}]})") == "");
  CHECK(error_of(head + R"("severity": "fail", "predicts": [{"when": {"fact": "x"}, "outcome": "cuda"}]}]})").find("predicts:") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "predicts": []}]})").find("an outcome id or a list") != std::string::npos);
  CHECK(error_of_files({{"tables/outcomes.json", R"({"table": "outcomes", "source": "t", "outcomes": [
    {"id": "cuda", "means": "m", "works": {"fact": "driver-libs.x", "eq": 0}}]})"}})
            .find("needs both \"works\" and \"fails\"") != std::string::npos);
}

namespace {

// A report of a driver-libs layer whose live evidence says init_result, and
// one device-nodes fact that the files gave.
gd::Report live_report(const gd::RuleSet& rules, std::optional<int> init_result) {
  gd::Report report;
  report.layers.resize(2);
  report.layers[0].facts.id = "device-nodes";
  report.layers[0].facts.set("nvidiactl_present", boost::json::value(false));
  report.layers[1].facts.id = "driver-libs";
  if (init_result) report.layers[1].facts.set("init_result", boost::json::value(*init_result));
  report.layers[1].facts.set("device_count", boost::json::value(1));
  gd::apply_rules(rules, report);
  return report;
}

const gd::Finding* finding_of(const gd::Report& report, std::string_view rule) {
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings)
      if (finding.rule == rule) return &finding;
  return nullptr;
}

}  // namespace

TEST_CASE("live evidence outranks inference: a prediction the run contradicts is a warning that says whom it still hurts") {
  const auto rules = gd::load_rule_files(with_tables({{"layers/test.json", R"({"rules": [
    {"id": "ctl-missing", "layer": "device-nodes", "severity": "fail", "predicts": "cuda",
     "if_works": "users who may not mknod still fail",
     "when": {"fact": "device-nodes.nvidiactl_present", "eq": false}, "message": "No nvidiactl.", "fix": "f", "source": "s"},
    {"id": "import-fails", "layer": "device-nodes", "severity": "fail", "predicts": "application",
     "when": {"fact": "device-nodes.nvidiactl_present", "eq": false}, "message": "Import fails.", "fix": "f", "source": "s"}]})"}}));
  SUBCASE("cuInit worked: the prediction is a warning, and the outcome it predicted is not") {
    const auto report = live_report(rules, 0);
    const auto* contradicted = finding_of(report, "ctl-missing");
    REQUIRE(contradicted);
    CHECK(contradicted->severity == gd::Severity::warn);
    CHECK(contradicted->message == "No nvidiactl. Yet cuInit gave 1 device(s): users who may not mknod still fail.");
    REQUIRE(contradicted->outcome);
    CHECK(contradicted->outcome->predicts == "cuda");
    CHECK(contradicted->outcome->observed == gd::Observed::works);
    // An outcome nothing in the run can see is never contradicted.
    const auto* unseen = finding_of(report, "import-fails");
    REQUIRE(unseen);
    CHECK(unseen->severity == gd::Severity::fail);
    CHECK(unseen->outcome->observed == gd::Observed::unknown);
    REQUIRE(report.outcomes.size() == 1);
    CHECK(report.outcomes[0].says == "cuInit gave 1 device(s)");
  }
  SUBCASE("cuInit failed: the prediction stands") {
    const auto report = live_report(rules, 100);
    CHECK(finding_of(report, "ctl-missing")->severity == gd::Severity::fail);
    CHECK(finding_of(report, "ctl-missing")->outcome->observed == gd::Observed::fails);
    CHECK(report.verdict == gd::Status::fail);
  }
  SUBCASE("no live evidence (--no-probe, a static build): the prediction stands") {
    const auto report = live_report(rules, std::nullopt);
    CHECK(finding_of(report, "ctl-missing")->severity == gd::Severity::fail);
    CHECK(finding_of(report, "ctl-missing")->outcome->observed == gd::Observed::unknown);
  }
}

TEST_CASE("spared_when: without live evidence, facts that show the failure will not reach this caller make it a warning") {
  const std::string head = R"({"rules": [{"id": "r", "layer": "device-nodes", "when": {"fact": "device-nodes.nvidiactl_present", "eq": false},
    "message": "m", "fix": "f", "source": "s", )";
  const std::string spared = R"("spared_when": [{"when": {"fact": "device-nodes.node_repair", "eq": "this-caller"}, "says": "x"}])";
  CHECK(error_of(head + R"("severity": "warn", )" + spared + "}]}").find("only a fail rule can have \"spared_when\"") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", )" + spared + "}]}").find("a fail rule says which outcome it predicts") != std::string::npos);
  CHECK(error_of(head + R"("severity": "fail", "predicts": "cuda", )" + spared + "}]}") == "");

  const auto rules = gd::load_rule_files(with_tables({{"layers/test.json", R"j({"rules": [
    {"id": "ctl-missing", "layer": "device-nodes", "severity": "fail", "predicts": "cuda",
     "spared_when": [{"when": {"fact": "device-nodes.node_repair", "eq": "this-caller"}, "says": "this caller makes them ({device-nodes.node_repair})"}],
     "when": {"fact": "device-nodes.nvidiactl_present", "eq": false}, "message": "No nvidiactl.", "fix": "f", "source": "s"}]})j"}}));
  const auto report_with = [&](const char* repair, std::optional<int> init_result) {
    gd::Report report;
    report.layers.resize(2);
    report.layers[0].facts.id = "device-nodes";
    report.layers[0].facts.set("nvidiactl_present", boost::json::value(false));
    report.layers[0].facts.set("node_repair", repair);
    report.layers[1].facts.id = "driver-libs";
    if (init_result) report.layers[1].facts.set("init_result", boost::json::value(*init_result));
    report.layers[1].facts.set("device_count", boost::json::value(1));
    gd::apply_rules(rules, report);
    return *finding_of(report, "ctl-missing");
  };
  const auto spared_caller = report_with("this-caller", std::nullopt);
  CHECK(spared_caller.severity == gd::Severity::warn);
  CHECK(spared_caller.message == "No nvidiactl. Yet this caller makes them (this-caller).");
  CHECK(report_with("nobody", std::nullopt).severity == gd::Severity::fail);
  // Live evidence outranks it both ways: a cuInit that failed keeps the failure.
  CHECK(report_with("this-caller", 100).severity == gd::Severity::fail);
  CHECK(report_with("this-caller", 0).message.starts_with("No nvidiactl. Yet cuInit gave 1 device(s)"));
}

TEST_CASE("a live failure that no rule explains is reported, never OK; explained, the catch-all stays silent") {
  const std::string catch_all = R"(
    {"id": "cuda-failed-unexplained", "layer": "driver-libs", "severity": "fail", "predicts": "cuda", "unless_explained": true,
     "when": {"fact": "outcome.cuda", "eq": "fails"}, "message": "cuInit failed ({driver-libs.init_result}).", "fix": "f", "source": "s"})";
  const auto alone = gd::load_rule_files(with_tables({{"layers/test.json", "{\"rules\": [" + catch_all + "]}"}}));
  const auto failed = live_report(alone, 999);
  REQUIRE(finding_of(failed, "cuda-failed-unexplained"));
  CHECK(failed.verdict == gd::Status::fail);
  CHECK(failed.failing_layer == "driver-libs");
  CHECK(finding_of(live_report(alone, 0), "cuda-failed-unexplained") == nullptr);

  const auto explained = gd::load_rule_files(with_tables({{"layers/test.json", R"({"rules": [
    {"id": "ctl-missing", "layer": "device-nodes", "severity": "fail", "predicts": "cuda",
     "when": {"fact": "device-nodes.nvidiactl_present", "eq": false}, "message": "No nvidiactl.", "fix": "f", "source": "s"},)" +
                                                                           catch_all + "]}"}}));
  const auto report = live_report(explained, 999);
  CHECK(finding_of(report, "cuda-failed-unexplained") == nullptr);
  CHECK(finding_of(report, "ctl-missing")->severity == gd::Severity::fail);
}

TEST_CASE("a warning cannot be the cause of a failure: a contradicted prediction explains nothing that still fails") {
  const auto rules = gd::load_rule_files(with_tables({{"layers/test.json", R"({"rules": [
    {"id": "ctl-missing", "layer": "device-nodes", "severity": "fail", "predicts": "cuda",
     "when": {"fact": "device-nodes.nvidiactl_present", "eq": false}, "message": "No nvidiactl.", "fix": "f", "source": "s"},
    {"id": "import-fails", "layer": "driver-libs", "severity": "fail", "predicts": "application", "explained_by": ["ctl-missing"],
     "when": {"fact": "device-nodes.nvidiactl_present", "eq": false}, "message": "Import fails.", "fix": "f", "source": "s"}]})"}}));
  const auto contradicted = live_report(rules, 0);
  CHECK_FALSE(finding_of(contradicted, "import-fails")->caused_by);
  CHECK(contradicted.failing_layer == "driver-libs");
  const auto confirmed = live_report(rules, 100);
  CHECK(finding_of(confirmed, "import-fails")->caused_by == "ctl-missing");
  CHECK(confirmed.failing_layer == "device-nodes");
}
