// The whole live check with the fake driver libraries of
// test_support/fake_driver.h on LD_LIBRARY_PATH: the driver probe runs
// wherever libcuda.so.1 resolves, even on this machine with no GPU and no
// module, its answer reaches the rules, and --no-probe keeps it from running.

#include "check/run_check.h"

#include "host/live_host.h"
#include "host/local_fs.h"
#include "host/session_host.h"
#include "probes/driver_probe.h"
#include "snapshot/recording_host.h"
#include "snapshot/replay_host.h"
#include "test_support/fake_driver.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <cstdlib>

namespace gd {
namespace {

const LayerReport& layer(const Report& report, std::string_view id) {
  for (const auto& entry : report.layers)
    if (entry.facts.id == id) return entry;
  FAIL("no layer " << id);
  throw;
}

bool has_finding(const Report& report, std::string_view rule) {
  for (const auto& entry : report.layers)
    for (const auto& finding : entry.findings)
      if (finding.rule == rule) return true;
  return false;
}

}  // namespace

TEST_CASE("a live check asks the driver in a child wherever libcuda.so.1 resolves, and --no-probe does not") {
  TempDir dir;
  build_fake_driver(dir);
  ::setenv("LD_LIBRARY_PATH", (dir / "lib").c_str(), 1);
  ::setenv("FAKE_CUDA", "999", 1);
  const RuleSet rules = load_embedded_rules();
  LiveHost host("/");

  const Report probed = run_check(host, rules);
  const auto& facts = layer(probed, "driver-libs").facts.facts;
  REQUIRE(facts.contains("cuda_probe"));
  CHECK(facts.at("cuda_probe").at("init_result") == 999);
  CHECK(facts.at("nvml_probe").at("status") == "ok");
  CHECK(has_finding(probed, "cuda-init-unknown-error"));

  const Report quiet = run_check(host, rules, ProbeOptions{.driver_probe = false});
  CHECK(!layer(quiet, "driver-libs").facts.facts.contains("cuda_probe"));
  CHECK(!has_finding(quiet, "cuda-init-unknown-error"));

  ::unsetenv("FAKE_CUDA");
  ::unsetenv("LD_LIBRARY_PATH");
}

TEST_CASE("the GPU table's NVML child asks what the table shows, the check's the GPUs' health too") {
  TempDir dir;
  build_fake_driver(dir);
  ::setenv("LD_LIBRARY_PATH", (dir / "lib").c_str(), 1);
  const RuleSet rules = load_embedded_rules();
  LiveHost host("/");
  const auto second_gpu = [](const Report& report) {
    return layer(report, "driver-libs").facts.facts.at("nvml_probe").at("devices").at(1).as_object();
  };
  const auto table = second_gpu(run_check(host, rules, ProbeOptions{.gpu_table = true}));
  CHECK(table.contains("temperature_c"));
  CHECK(table.contains("memory_used_mib"));
  CHECK(!table.contains("inforom_valid"));
  CHECK(!table.contains("process_list"));
  const auto checked = second_gpu(run_check(host, rules));
  CHECK(checked.at("inforom_valid") == false);  // the fake's GPU 1 has a corrupt InfoROM
  CHECK(checked.contains("process_list"));
  ::unsetenv("LD_LIBRARY_PATH");
}

TEST_CASE("gpus --watch: each reading's GPU table from one NVML child, asked again, with one nvmlInit") {
  TempDir dir;
  build_fake_driver(dir);
  ::setenv("LD_LIBRARY_PATH", (dir / "lib").c_str(), 1);
  const auto inits = dir / "inits";
  const auto temperature = dir / "temperature";
  ::setenv("FAKE_NVML_INIT_LOG", inits.c_str(), 1);
  ::setenv("FAKE_NVML_TEMPERATURE", temperature.c_str(), 1);
  const RuleSet rules = load_embedded_rules();
  LiveHost live("/");
  SessionHost watching(live, nvml_probe_request(k_nvml_probe_deadline, true), nvml_table_session_request(k_nvml_probe_deadline));
  const auto reading = [&](int celsius) {
    std::ofstream(temperature) << celsius << "\n";
    const Report report = run_check(watching, rules, ProbeOptions{.gpu_table = true});
    const auto& nvml = layer(report, "driver-libs").facts.facts.at("nvml_probe").as_object();
    CHECK(nvml.at("status") == "ok");
    CHECK(nvml.at("devices").as_array().size() == 2);
    return nvml.at("devices").at(1).at("temperature_c");
  };
  CHECK(reading(40) == 40);
  CHECK(reading(41) == 41);  // asked again, not the first answer kept
  CHECK(reading(42) == 42);
  const auto logged = read_local_file(inits, 4096);
  REQUIRE(logged);
  CHECK(*logged == "nvmlInit_v2\n");  // one session for the three readings

  // A host without sessions (the fake) is asked each time, as before.
  std::ofstream(inits, std::ios::trunc).flush();
  const Report once = run_check(live, rules, ProbeOptions{.gpu_table = true});
  CHECK(layer(once, "driver-libs").facts.facts.at("nvml_probe").at("status") == "ok");
  CHECK(*read_local_file(inits, 4096) == "nvmlInit_v2\n");
  ::unsetenv("FAKE_NVML_INIT_LOG");
  ::unsetenv("FAKE_NVML_TEMPERATURE");
  ::unsetenv("LD_LIBRARY_PATH");
}

TEST_CASE("under --root the driver is never asked: the image's libraries are not this machine's") {
  TempDir dir;
  build_fake_driver(dir);
  dir.mkdir("root/usr/lib64");
  std::filesystem::copy_file(dir / "lib/libcuda.so.1", dir / "root/usr/lib64/libcuda.so.1");
  const RuleSet rules = load_embedded_rules();
  LiveHost host(dir / "root");
  const Report report = run_check(host, rules);
  const auto& facts = layer(report, "driver-libs").facts.facts;
  REQUIRE(facts.at("libraries").at(0).at("found") == true);  // it resolves in the image...
  CHECK(!facts.contains("cuda_probe"));                       // ...and is still not loaded
}

TEST_CASE("a snapshot of a live run with the driver's answers replays to the same diagnosis") {
  TempDir dir;
  build_fake_driver(dir);
  ::setenv("LD_LIBRARY_PATH", (dir / "lib").c_str(), 1);
  ::setenv("FAKE_CUDA", "802", 1);
  ::setenv("FAKE_NVML", "ok", 1);
  const RuleSet rules = load_embedded_rules();
  LiveHost live("/");
  TempDir out;
  std::filesystem::create_directories(out / "root");
  RecordingHost recorder(live, out.path());
  const Report recorded = run_check(recorder, rules, ProbeOptions{.driver_probe = true, .smoke = true});  // with --smoke
  REQUIRE(recorder.finish("test").has_value());
  ::unsetenv("FAKE_CUDA");
  ::unsetenv("FAKE_NVML");
  ::unsetenv("LD_LIBRARY_PATH");
  CHECK(has_finding(recorded, "cuda-init-system-not-ready"));
  ReplayHost replay(out.path());
  const Report replayed = run_check(replay, rules);  // a replay without --smoke takes the recorded smoke answer
  CHECK(replayed.verdict == recorded.verdict);
  CHECK(replayed.failing_layer == recorded.failing_layer);
  std::set<std::string> a, b;
  for (const auto& layer : recorded.layers)
    for (const auto& finding : layer.findings) a.insert(finding.rule);
  for (const auto& layer : replayed.layers)
    for (const auto& finding : layer.findings) b.insert(finding.rule);
  CHECK(a == b);
  CHECK(layer(replayed, "driver-libs").facts.facts.at("nvml_probe").at("devices").as_array().size() == 2);
}

}  // namespace gd

