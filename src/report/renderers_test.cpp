#include "report/renderers.h"

#include <doctest/doctest.h>

#include "util/text.h"

#include <cstdlib>
#include <regex>
#include <set>

namespace {

gd::Report sample_report() {
  gd::Report report;
  report.gpudoctor_version = "0.0.0";
  report.mode = "replay";
  report.system = {{"platform", "linux"}, {"kernel_release", "6.1.0"}};
  report.machine = {"linux", "6.1.0"};
  for (const char* id : {"hardware", "kernel-module"}) {
    gd::LayerReport layer;
    layer.facts.id = id;
    layer.facts.status = gd::Status::ok;
    layer.facts.summary = std::string(id) + " summary | with a pipe";
    layer.facts.set("count", 1, "/sys/bus/pci/devices");
    report.layers.push_back(layer);
  }
  report.layers[1].findings.push_back({.rule = "nvidia-module-not-loaded",
                                       .layer = "kernel-module",
                                       .severity = gd::Severity::fail,
                                       .message = "It is not loaded.",
                                       .evidence = {{"kernel-module.loaded", false, "/proc/modules"}},
                                       .fix = "modprobe it",
                                       .reference = "test"});
  gd::settle_verdict(report);
  return report;
}

}  // namespace

TEST_CASE("JSON follows gpudoctor-report/1") {
  const auto json = gd::report_to_json(sample_report());
  CHECK(json.at("schema").as_string() == "gpudoctor-report/1");
  CHECK(json.at("subject").as_string() == "host");
  CHECK(json.at("verdict").as_string() == "fail");
  CHECK(json.at("failing_layer").as_string() == "kernel-module");
  const auto& layer = json.at("layers").as_array()[1].as_object();
  CHECK(layer.at("id").as_string() == "kernel-module");
  CHECK(layer.at("status").as_string() == "fail");
  const auto& finding = layer.at("findings").as_array()[0].as_object();
  CHECK(finding.at("rule").as_string() == "nvidia-module-not-loaded");
  CHECK(finding.at("severity").as_string() == "fail");
  CHECK(finding.at("evidence").as_array()[0].at("source").as_string() == "/proc/modules");
  CHECK(finding.at("fix").as_string() == "modprobe it");
  CHECK(boost::json::parse(gd::render_json(sample_report())).is_object());
}

TEST_CASE("text report: marks, summary line, and colour only when asked") {
  const auto report = sample_report();
  const auto plain = gd::render_text(report, {false, false}, gd::Verbosity::normal);
  CHECK(plain.find("[FAIL] kernel-module") != std::string::npos);
  CHECK(plain.find("[ ok ] hardware") != std::string::npos);
  CHECK(plain.find("FAIL at kernel-module: It is not loaded.") != std::string::npos);
  CHECK(plain.find("\033[") == std::string::npos);
  CHECK(plain.starts_with("gpudoctor 0.0.0 - replay, linux, kernel 6.1.0\n"));
  CHECK(gd::render_markdown(report).find(", platform linux, kernel 6.1.0") != std::string::npos);
  auto hostile = report;
  hostile.machine.kernel_release = "6.1\x1b]0;pwned\x07";
  CHECK(gd::render_text(gd::terminal_safe_report(hostile), {false, false}, gd::Verbosity::normal).find("kernel 6.1\\x1b]0;pwned\\x07\n") !=
        std::string::npos);
  const auto fancy = gd::render_text(report, {true, true}, gd::Verbosity::verbose);
  CHECK(fancy.find("\033[31m✗\033[0m") != std::string::npos);
  CHECK(fancy.find("count: 1") != std::string::npos);
}

TEST_CASE("colour as no-color.org says: a non-empty NO_COLOR turns the default off, --color overrides it") {
  using gd::ColorChoice;
  CHECK_FALSE(gd::wants_color(ColorChoice::auto_detect, "1", true, "xterm"));
  CHECK(gd::wants_color(ColorChoice::auto_detect, "", true, "xterm"));  // empty: disables nothing
  CHECK(gd::wants_color(ColorChoice::auto_detect, nullptr, true, "xterm"));
  CHECK_FALSE(gd::wants_color(ColorChoice::auto_detect, nullptr, false, "xterm"));  // not a terminal
  CHECK_FALSE(gd::wants_color(ColorChoice::auto_detect, nullptr, true, "dumb"));
  CHECK(gd::wants_color(ColorChoice::always, "1", false, "dumb"));  // the command line beats NO_COLOR
  CHECK_FALSE(gd::wants_color(ColorChoice::never, nullptr, true, "xterm"));
}

TEST_CASE("a quiet info finding is in the text report with -v only, and always in JSON") {
  auto report = sample_report();
  gd::Finding quiet;
  quiet.rule = "libcuda-unversioned-missing";
  quiet.layer = "kernel-module";
  quiet.message = "There is no libcuda.so.";
  quiet.quiet = true;
  report.layers[1].findings.push_back(quiet);
  CHECK(gd::render_text(report, {false, false}, gd::Verbosity::normal).find("There is no libcuda.so.") == std::string::npos);
  CHECK(gd::render_text(report, {false, false}, gd::Verbosity::verbose).find("There is no libcuda.so.") != std::string::npos);
  CHECK(boost::json::serialize(gd::report_to_json(report)).find("libcuda-unversioned-missing") != std::string::npos);
}

TEST_CASE("markdown escapes table cells and lists findings") {
  const auto markdown = gd::render_markdown(sample_report());
  CHECK(markdown.find("summary \\| with a pipe") != std::string::npos);
  CHECK(markdown.find("**fail** `nvidia-module-not-loaded` (kernel-module)") != std::string::npos);
  CHECK(markdown.find("<details>") != std::string::npos);
}

TEST_CASE("repeats of one rule are shown once, then named, in text and markdown") {
  gd::Report report;
  report.layers.push_back({{"device-nodes", gd::Status::ok, "3 nodes", {}, {}}, gd::Status::unknown, {}, {}});
  for (const char* node : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia0"})
    report.layers[0].findings.push_back({.rule = "device-open-denied",
                                         .layer = "device-nodes",
                                         .severity = gd::Severity::fail,
                                         .message = std::string("Opening ") + node + " was refused.",
                                         .fix = "Restart it.",
                                         .reference = "src",
                                         .about = node});
  gd::settle_verdict(report);
  const auto text = gd::render_text(report, {false, false}, gd::Verbosity::normal);
  CHECK(text.find("Opening /dev/nvidiactl was refused.") != std::string::npos);
  CHECK(text.find("Opening /dev/nvidia0 was refused.") == std::string::npos);
  CHECK(text.find("... (the same for /dev/nvidia-uvm and /dev/nvidia0)") != std::string::npos);
  const auto verbose = gd::render_text(report, {false, false}, gd::Verbosity::verbose);
  CHECK(verbose.find("Opening /dev/nvidia0 was refused.") != std::string::npos);  // -v shows each in full
  const auto markdown = gd::render_markdown(report);
  CHECK(markdown.find("the same for /dev/nvidia-uvm and /dev/nvidia0") != std::string::npos);
  CHECK(gd::report_to_json(report).at("layers").as_array()[0].at("findings").as_array().size() == 3);  // JSON keeps all
}

TEST_CASE("markdown: values from the diagnosed system cannot become HTML or markdown") {
  gd::Report report = sample_report();
  const std::string hostile = "0</details><script>alert(1)</script>*[x](http://e)";
  report.layers[0].facts.summary = "GPU " + hostile;
  report.layers[1].findings[0].message = "CUDA_VISIBLE_DEVICES='" + hostile + "' selects nothing.";
  report.layers[1].findings[0].evidence.push_back({"device-nodes.cuda_visible_devices.value", boost::json::value(hostile), ""});
  report.layers[1].facts.set("cuda_visible_devices", hostile);  // in the facts block too
  const auto markdown = gd::render_markdown(report);
  CHECK(markdown.find("<script>") == std::string::npos);
  CHECK(markdown.find("</details><") == std::string::npos);
  CHECK(markdown.find("CUDA_VISIBLE_DEVICES='0&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  // The evidence value is inert markdown too: no emphasis, no link.
  CHECK(markdown.find("= 0&lt;/details&gt;&lt;script&gt;alert\\(1\\)&lt;/script&gt;\\*\\[x\\]\\(http://e\\)") != std::string::npos);
  // The one <details> block is ours, and closes once.
  CHECK(markdown.find("</details>") == markdown.rfind("</details>"));
}

TEST_CASE("the JSON report is valid UTF-8 whatever bytes the facts hold") {
  gd::Report report = sample_report();
  report.layers[0].facts.set("ld_library_path", "/tmp/\xff\xfe:/x");
  report.layers[0].facts.facts["odd\xffkey"] = 1;
  const auto json = gd::render_json(report);
  CHECK(gd::valid_utf8(json) == json);
  CHECK(json.find(R"("ld_library_path": "/tmp/\\xff\\xfe:/x")") != std::string::npos);
  CHECK(json.find(R"("odd\\xffkey")") != std::string::npos);
}

TEST_CASE("prometheus: every line is a comment or a well-formed sample, label values escaped") {
  gd::Report report = sample_report();
  report.layers[1].findings[0].about = "a \"quoted\" \\ value\nwith a newline";
  const auto text = gd::render_prometheus(report);
  const std::regex sample(R"re(^[a-z_]+(\{[a-z_]+="([^"\\\n]|\\.)*"(,[a-z_]+="([^"\\\n]|\\.)*")*\})? [0-9]+(\.[0-9]+)?$)re");
  std::size_t samples = 0;
  for (auto line : gd::lines(text)) {
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) continue;
    CAPTURE(line);
    CHECK(std::regex_match(std::string(line), sample));
    ++samples;
  }
  CHECK(samples > 10);
  CHECK(text.find("gpudoctor_ok 0\n") != std::string::npos);
  CHECK(text.find("gpudoctor_failing_layer{layer=\"kernel-module\"} 1") != std::string::npos);
  // printable() wrote the newline as \x0a; its backslash is escaped like any other.
  CHECK(text.find(R"(about="a \"quoted\" \\ value\\x0awith a newline")") != std::string::npos);
}

TEST_CASE("text: a fix's `command` is never broken across lines, so it copies in one piece") {
  gd::Report report = sample_report();
  const std::string command = "`sudo apt install --reinstall libnvidia-compute-550 nvidia-kernel-common-550`";
  report.layers[1].findings[0].fix = "Reinstall the driver's packages for this kernel, then reboot: " + command + " and check again.";
  const auto narrow = gd::render_text(report, {false, false, 60}, gd::Verbosity::normal);
  CHECK(narrow.find(command) != std::string::npos);  // whole, on one line, though wider than the rest
  for (auto line : gd::lines(narrow)) {  // the prose around it still wraps
    CAPTURE(line);
    CHECK((line.size() <= 60 || line.find(command) != std::string::npos || line.find("FAIL at") != std::string::npos));
  }
}

TEST_CASE("prometheus: PCI addresses as dcgm-exporter writes them") {
  CHECK(gd::dcgm_pci_bus_id("0000:3b:00.0") == "00000000:3B:00.0");
  CHECK(gd::dcgm_pci_bus_id("00000000:AF:00.0") == "00000000:AF:00.0");
  CHECK(gd::dcgm_pci_bus_id("0001:c1:00.1") == "00000001:C1:00.1");
  CHECK_FALSE(gd::dcgm_pci_bus_id("/dev/nvidia0"));
  CHECK_FALSE(gd::dcgm_pci_bus_id("0000:3b:00.8"));
  CHECK_FALSE(gd::dcgm_pci_bus_id(""));
}

TEST_CASE("prometheus: the root cause, build, duration and GPUs as series; a GPU finding joins dcgm-exporter") {
  gd::Report report = sample_report();
  report.duration_seconds = 0.0125;
  gd::GpuRow gpu;
  gpu.bus_id = "0000:3b:00.0";
  gpu.name = "NVIDIA H100";
  gpu.source = "files";
  report.gpus.push_back(gpu);
  report.layers[1].findings.push_back({.rule = "nvidia-smi-gpu-lost", .layer = "kernel-module", .severity = gd::Severity::fail,
                                       .message = "lost", .action = gd::Action::reboot_node, .about = "0000:3b:00.0"});
  report.layers[1].findings[0].action = gd::Action::fix_configuration;
  gd::settle_verdict(report);
  const auto text = gd::render_prometheus(report);
  CHECK(text.find("gpudoctor_root_cause{rule=\"nvidia-module-not-loaded\",layer=\"kernel-module\",severity=\"fail\","
                  "action=\"fix-configuration\"} 1\n") != std::string::npos);
  // The machine's action is the most disruptive a root cause asks for, one series per action.
  CHECK(text.find("gpudoctor_action{action=\"reboot-node\"} 1\n") != std::string::npos);
  CHECK(text.find("gpudoctor_action{action=\"fix-configuration\"} 0\n") != std::string::npos);
  CHECK(text.find("gpudoctor_action{action=\"none\"} 0\n") != std::string::npos);
  CHECK(text.find("gpudoctor_check_duration_seconds 0.012500\n") != std::string::npos);
  CHECK(text.find("gpudoctor_build_info{version=\"0.0.0\",build=\"") != std::string::npos);
  CHECK(text.find("gpudoctor_check_info{mode=\"replay\",subject=\"host\"} 1\n") != std::string::npos);
  CHECK(text.find("rule=\"nvidia-smi-gpu-lost\",layer=\"kernel-module\",severity=\"fail\",action=\"reboot-node\",about=\"0000:3b:00.0\","
                  "pci_bus_id=\"00000000:3B:00.0\",root_cause=\"1\"} 1") != std::string::npos);
  CHECK(text.find("gpudoctor_gpu_info{pci_bus_id=\"00000000:3B:00.0\",uuid=\"\",name=\"NVIDIA H100\",source=\"files\"} 1\n") !=
        std::string::npos);
  // No duration, no series: a hand-made report says nothing it does not know.
  CHECK(gd::render_prometheus(sample_report()).find("gpudoctor_check_duration_seconds") == std::string::npos);
}

TEST_CASE("prometheus: labels equal after the cut are one series, its value their count") {
  gd::Report report = sample_report();
  const std::string long_path = "/usr/lib/" + std::string(200, 'x');
  for (const char* tail : {"/libcuda.so.1", "/libnvidia-ml.so.1"})
    report.layers[1].findings.push_back(
        {.rule = "library-unreadable", .layer = "kernel-module", .severity = gd::Severity::warn, .message = "m", .about = long_path + tail});
  const auto text = gd::render_prometheus(report);
  std::set<std::string> series;
  for (auto line : gd::lines(text)) {
    if (line.starts_with("#")) continue;
    const std::string name_and_labels(line.substr(0, line.rfind(' ')));
    CAPTURE(name_and_labels);
    CHECK(series.insert(name_and_labels).second);
  }
  const auto at = text.find("rule=\"library-unreadable\"");
  REQUIRE(at != std::string::npos);
  CHECK(text.substr(text.find('\n', at) - 2, 2) == " 2");
}

TEST_CASE("text: long lines wrap at a terminal's width with a hanging indent, and never when not a terminal") {
  gd::Report report = sample_report();
  report.layers[1].findings[0].message = std::string("The loaded kernel module and the user-space libraries belong to different ") +
                                         "releases, so every CUDA program fails at start with error 803 here.";
  const auto wide = gd::render_text(report, {false, false, 0}, gd::Verbosity::normal);
  CHECK(wide.find("different releases, so") != std::string::npos);  // one line
  const auto narrow = gd::render_text(report, {false, false, 60}, gd::Verbosity::normal);
  for (auto line : gd::lines(narrow)) {
    CAPTURE(line);
    CHECK(line.size() <= 60);
  }
  // The continuation sits under the message's first column (6 spaces, the glyph, a space).
  CHECK(narrow.find("\n             ") != std::string::npos);
  CHECK(gd::lines(narrow).size() > gd::lines(wide).size());
}

