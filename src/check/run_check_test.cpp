#include "check/run_check.h"

#include "probes/systemd_units.h"
#include "rules/rule_set.h"
#include "snapshot/recording_host.h"
#include "snapshot/replay_host.h"
#include "test_support/binary_writer.h"
#include "test_support/fake_host.h"
#include "test_support/temp_dir.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

namespace {

const gd::LayerReport& layer_of(const gd::Report& report, const std::string& id) {
  for (const auto& layer : report.layers)
    if (layer.facts.id == id) return layer;
  throw std::runtime_error("no layer " + id);
}

}  // namespace

TEST_CASE("a probe that throws costs its own layer, not the report") {
  const auto rules = gd::load_embedded_rules();
  gd::FakeHost host;
  host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  host.throw_on_read.insert("/proc/modules");  // the kernel-module probe reads it first
  const auto report = gd::run_check(host, rules);

  const auto& kernel = layer_of(report, "kernel-module");
  CHECK(kernel.status == gd::Status::unknown);
  CHECK(kernel.facts.summary.find("injected failure reading /proc/modules") != std::string::npos);
  REQUIRE(kernel.findings.size() == 1);
  CHECK(kernel.findings[0].rule == "probe-error");
  // Every other layer was still examined.
  CHECK(report.layers.size() == 7);
  CHECK(layer_of(report, "hardware").facts.facts.contains("gpu_count"));
  CHECK(layer_of(report, "device-nodes").facts.facts.contains("nodes"));
  CHECK(layer_of(report, "cuda-runtime").facts.facts.contains("runtimes"));
}

TEST_CASE("each device node is opened at most once per run, and only an NVIDIA character device") {
  const auto rules = gd::load_embedded_rules();
  gd::FakeHost host;
  host.file("/proc/modules", "nvidia 1 0 - Live 0x0\nnvidia_uvm 1 0 - Live 0x0\n");
  host.file("/proc/devices", "Character devices:\n  1 mem\n195 nvidia\n510 nvidia-uvm\n\nBlock devices:\n");
  host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0666, 0, 0, {}, {}};
  host.devices["/dev/nvidia0"] = {gd::FileType::char_device, 1, 3, 0666, 0, 0, {}, {}};  // /dev/null's numbers under an NVIDIA name
  host.devices["/dev/nvidia-uvm"] = {gd::FileType::char_device, 510, 0, 0666, 0, 0, {}, {}};
  gd::ChildAnswer answer;
  answer.exit = 0;
  answer.output = "0 open=ok version=550.54.15\n1 open=ok\n";
  host.answers["device-open /dev/nvidiactl /dev/nvidia-uvm"] = answer;
  const auto report = gd::run_check(host, rules);

  int device_opens = 0;
  for (const auto& request : host.asked)
    if (request.kind == gd::ChildKind::device_open) {
      ++device_opens;
      CHECK(request.args == std::vector<std::string>{"/dev/nvidiactl", "/dev/nvidia-uvm"});
    }
  CHECK(device_opens == 1);
  const auto& nodes = layer_of(report, "device-nodes").facts.facts;
  CHECK(nodes.at("ioctl_driver_version").as_string() == "550.54.15");
  for (const auto& node : nodes.at("nodes").as_array()) {
    const auto& object = node.as_object();
    CAPTURE(object.at("path"));
    if (object.at("path").as_string() == "/dev/nvidia0") {
      CHECK(object.at("open").is_null());
      CHECK(object.at("wrong_number").as_bool());
    } else {
      CHECK(object.at("open").as_string() == "ok");
    }
  }
}

TEST_CASE("the fake host follows links at the root and reads a link itself without following it") {
  gd::FakeHost host;
  host.file("/real/version", "550\n").link("/alias", "real").link("/dir/link", "../real/version");
  CHECK(host.read_file("/alias/version", 100).value() == "550\n");
  CHECK(host.read_file("/dir/link", 100).value() == "550\n");
  CHECK(host.read_link("/alias").value() == "real");
  CHECK(host.read_link("/real/version").error().value() == EINVAL);
}

namespace {

// A host whose driver answers everything: nvidia-smi on PATH, libcuda and NVML found.
// nvml_recorded: the NVML requests answered ("driver-probe nvml", and the
// GPU table's "driver-probe nvml table").
gd::FakeHost answering_host(bool nvml_lists_gpus, std::vector<std::string> nvml_recorded = {"driver-probe nvml", "driver-probe nvml table"}) {
  gd::FakeHost host;
  host.file("/proc/modules", "nvidia 1 0 - Live 0x0\nnvidia_uvm 1 0 - Live 0x0\n");
  host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0666, 0, 0, {}, {}};
  host.env_var("PATH", "/usr/bin");
  host.file("/usr/bin/nvidia-smi", "");
  for (const char* library : {"libcuda.so.1", "libnvidia-ml.so.1"})
    host.file(std::string("/usr/lib64/") + library, gd::tiny_elf({.soname = library}));
  gd::ChildAnswer nvml;
  nvml.exit = 0;
  nvml.output = std::string(R"({"library":"libnvidia-ml.so.1","loaded":true})") + "\n" + R"({"call":"nvmlInit_v2","result":0})" + "\n" +
                (nvml_lists_gpus ? std::string(R"({"call":"nvmlDeviceGetCount","result":0,"value":1})") + "\n" +
                                       R"({"nvml_device":0,"name":"NVIDIA H100 80GB HBM3","uuid":"GPU-1"})" + "\n"
                                 : std::string()) +
                R"({"done":true})" + "\n";
  for (const auto& key : nvml_recorded) host.answers[key] = nvml;
  return host;
}

int asked_of(const gd::FakeHost& host, gd::ChildKind kind, std::string_view first_arg = {}) {
  int count = 0;
  for (const auto& request : host.asked)
    if (request.kind == kind && (first_arg.empty() || (!request.args.empty() && request.args[0].ends_with(first_arg)))) ++count;
  return count;
}

}  // namespace

TEST_CASE("the GPU table asks NVML alone where NVML lists the GPUs: no cuInit, no nvidia-smi, no node opened, no kernel log") {
  const auto rules = gd::load_embedded_rules();
  gd::ProbeOptions table;
  table.gpu_table = true;
  auto host = answering_host(true);
  const auto report = gd::run_check(host, rules, table);
  CHECK(asked_of(host, gd::ChildKind::driver_probe, "nvml") == 1);
  CHECK(host.asked.back().key() == "driver-probe nvml table");  // only what the table shows
  CHECK(asked_of(host, gd::ChildKind::driver_probe, "cuda") == 0);
  CHECK(asked_of(host, gd::ChildKind::command, "nvidia-smi") == 0);
  CHECK(asked_of(host, gd::ChildKind::device_open) == 0);
  CHECK(asked_of(host, gd::ChildKind::command, "dmesg") == 0);
  CHECK(layer_of(report, "driver-libs").facts.facts.at("gpu_list_source") == "nvml");
  CHECK(report.layers.size() == 5);  // nothing above driver-libs is read for a table

  // A snapshot records the check's whole NVML answer: a replayed table takes it.
  auto snapshot = answering_host(true, {"driver-probe nvml"});
  const auto replayed = gd::run_check(snapshot, rules, table);
  CHECK(asked_of(snapshot, gd::ChildKind::driver_probe, "nvml") == 2);
  CHECK(layer_of(replayed, "driver-libs").facts.facts.at("gpu_list_source") == "nvml");

  // NVML lists none: nvidia-smi's query next, then CUDA.
  auto quiet = answering_host(false);
  gd::run_check(quiet, rules, table);
  CHECK(asked_of(quiet, gd::ChildKind::command, "nvidia-smi") >= 1);
  CHECK(asked_of(quiet, gd::ChildKind::driver_probe, "cuda") >= 1);
  // The full check asks all of them, the device nodes and the kernel log too.
  auto full = answering_host(true);
  gd::run_check(full, rules);
  CHECK(asked_of(full, gd::ChildKind::driver_probe, "cuda") >= 1);
  CHECK(asked_of(full, gd::ChildKind::command, "nvidia-smi") >= 1);
  CHECK(asked_of(full, gd::ChildKind::device_open) == 1);
  CHECK(asked_of(full, gd::ChildKind::command, "dmesg") == 1);
}

TEST_CASE("the rule set is asked for once, while the driver's children run, and never for a GPU table") {
  const auto rules = gd::load_embedded_rules();
  auto host = answering_host(true);
  int asked = 0;
  std::size_t started_then = 0;
  int cuda_answers_taken_then = -1;
  const gd::CheckRules lazy{rules.tables, [&]() -> const gd::RuleSet& {
                              ++asked;
                              started_then = host.asked_ahead.size();
                              cuda_answers_taken_then = asked_of(host, gd::ChildKind::driver_probe, "cuda");
                              return rules;
                            }};
  const auto report = gd::run_check(host, lazy);
  CHECK(asked == 1);
  CHECK(started_then >= 3);  // cuInit, NVML and nvidia-smi were started before it
  CHECK(cuda_answers_taken_then == 0);  // and not yet waited for
  auto eager = answering_host(true);
  CHECK(report.verdict == gd::run_check(eager, rules).verdict);  // the same judgement

  gd::ProbeOptions table;
  table.gpu_table = true;
  auto for_table = answering_host(true);
  asked = 0;
  const gd::CheckRules table_rules{rules.tables, [&]() -> const gd::RuleSet& {
                                     ++asked;
                                     return rules;
                                   }};
  gd::run_check(for_table, table_rules, table);
  CHECK(asked == 0);
}

TEST_CASE("a running dockerd is asked once, ahead of the driver's children, and not at all for a GPU table") {
  const auto rules = gd::load_embedded_rules();
  auto docker_host = [] {
    auto host = answering_host(true);
    host.file("/usr/bin/dockerd", "").file("/etc/docker/daemon.json", R"({"runtimes": {"nvidia": {"path": "/usr/bin/dockerd"}}})");
    host.file("/var/run/docker.pid", "4242\n").file("/proc/4242/stat", "4242 (dockerd) S 1 4242 4242 0 -1 0\n");
    gd::ChildAnswer info;
    info.exit = 0;
    info.output = R"({"ServerVersion":"28.3.3","DefaultRuntime":"runc","Runtimes":{"runc":{"path":"runc"}}})";
    host.answers["docker-api /var/run/docker.sock"] = info;
    return host;
  };
  auto host = docker_host();
  const auto report = gd::run_check(host, rules);
  CHECK(asked_of(host, gd::ChildKind::docker_api) == 1);
  REQUIRE_FALSE(host.asked_ahead.empty());
  CHECK(host.asked_ahead.front().kind == gd::ChildKind::docker_api);  // before cuInit, NVML and nvidia-smi are started
  const auto& container = layer_of(report, "container");
  CHECK(container.facts.facts.at("engines").at("docker").at("daemon").at("answered") == true);
  CHECK(std::any_of(container.findings.begin(), container.findings.end(),
                    [](const gd::Finding& finding) { return finding.rule == "docker-runtime-not-loaded"; }));

  gd::ProbeOptions table;
  table.gpu_table = true;
  auto for_table = docker_host();
  gd::run_check(for_table, rules, table);
  CHECK(asked_of(for_table, gd::ChildKind::docker_api) == 0);
  for (const auto& request : for_table.asked_ahead) CHECK(request.kind != gd::ChildKind::docker_api);
}

TEST_CASE("a unit masked on a live system, where stat follows the link to the device /dev/null, is masked in its snapshot too") {
  gd::FakeHost live;
  gd::DeviceNode null_device;
  null_device.type = gd::FileType::char_device;
  null_device.major = 1;
  null_device.minor = 3;
  live.devices["/dev/null"] = null_device;
  live.file("/usr/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n");
  live.link("/etc/systemd/system/nvidia-fabricmanager.service", "/dev/null");
  gd::TempDir out;
  std::filesystem::create_directories(out / "root");
  gd::RecordingHost recorder(live, out.path());
  CHECK(gd::find_systemd_unit(recorder, "nvidia-fabricmanager.service").masked);
  REQUIRE(recorder.finish("test").has_value());
  gd::ReplayHost replay(out.path());
  const auto unit = gd::find_systemd_unit(replay, "nvidia-fabricmanager.service");
  CHECK(unit.masked);
  CHECK(unit.path == "/usr/lib/systemd/system/nvidia-fabricmanager.service");
}

TEST_CASE("/proc/self/mountinfo is read once per check, however many layers ask it") {
  const auto rules = gd::load_embedded_rules();
  gd::FakeHost host;
  host.file("/.dockerenv", "");  // the one marker: the mounts decide whether it is outweighed
  host.file("/proc/self/mountinfo",
            "21 1 0:20 / / rw,relatime - overlay overlay rw\n"
            "22 21 0:21 / /dev rw,nosuid,nodev - tmpfs tmpfs rw\n"
            "23 21 0:22 / /proc/driver/nvidia rw - tmpfs tmpfs rw\n"
            "24 21 8:1 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 ro - ext4 /dev/vda1 rw\n");
  host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  host.file("/proc/devices", "Character devices:\n195 nvidia\n");
  host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0666, 0, 0, {}, {}};
  host.answers["device-open /dev/nvidiactl"] = gd::child_answer("0 open=EACCES\n");
  const auto report = gd::run_check(host, rules);
  CHECK(host.reads["/proc/self/mountinfo"] == 1);
  // Each layer still saw the mounts: the container's injection, and the node's nodev /dev.
  CHECK(layer_of(report, "container").facts.facts.at("injection").as_string() == "legacy");
  const auto& node = layer_of(report, "device-nodes").facts.facts.at("nodes").as_array().at(0).as_object();
  CHECK(node.at("nodev_mount").as_string() == "/dev");
}
