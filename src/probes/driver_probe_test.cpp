// The driver probe end to end: this test binary re-executes itself as the
// child (doctest_main.cpp), which loads the fake libraries of
// test_support/fake_driver.h through LD_LIBRARY_PATH, as a program would.

#include "probes/driver_probe.h"

#include "host/live_host.h"
#include "test_support/fake_driver.h"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdlib>

namespace gd {
namespace {

// The child inherits the environment: the fake libraries and their mode.
struct FakeDriverEnvironment {
  TempDir dir;
  FakeDriverEnvironment() {
    build_fake_driver(dir);
    ::setenv("LD_LIBRARY_PATH", (dir / "lib").c_str(), 1);
  }
  ~FakeDriverEnvironment() {
    ::unsetenv("LD_LIBRARY_PATH");
    ::unsetenv("FAKE_CUDA");
    ::unsetenv("FAKE_NVML");
  }
  static void cuda(const char* mode) { ::setenv("FAKE_CUDA", mode, 1); }
  static void nvml(const char* mode) { ::setenv("FAKE_NVML", mode, 1); }
};

FakeDriverEnvironment& fake() {
  static FakeDriverEnvironment environment;
  return environment;
}

// The NVML child's answer: these lines, then its closing one.
ChildAnswer nvml_answer(const std::string& lines) {
  ChildAnswer answer;
  answer.exit = 0;
  answer.output = lines + "{\"done\":true}\n";
  return answer;
}

}  // namespace

TEST_CASE("the cuda probe reports the driver's version, cuInit and every device") {
  fake().cuda("ok4");
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false);
  CHECK(facts.status == gd::ChildStatus::ok);
  CHECK(facts.library_loaded);
  CHECK(facts.cuda_version == "12.4");
  CHECK(facts.init_result == 0);
  CHECK(facts.device_count == 4);
  REQUIRE(facts.devices.size() == 4);
  CHECK(facts.devices[2].name == "NVIDIA H100 80GB HBM3 #2");
  CHECK(facts.devices[2].bus_id == "00000000:1A:00.0");
  CHECK(facts.devices[2].uuid == "GPU-abababab-abab-abab-abab-ababababab02");
  CHECK(facts.devices[0].compute_capability == "9.0");
  CHECK(facts.devices[0].memory_total_mib == 81559);
  CHECK(!facts.smoke);
  // The child reports the file it really mapped: the fake, not a system libcuda.
  REQUIRE(facts.mapped.size() == 1);
  CHECK(facts.mapped[0] == fake().dir / "lib/libcuda.so.1");
}

TEST_CASE("a libcuda that prints to stdout does not garble the probe: the protocol has its own descriptor") {
  fake().cuda("chatty");
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false);
  CHECK(facts.status == gd::ChildStatus::ok);  // it was "garbled" while the protocol shared stdout
  CHECK(facts.init_result == 0);
  CHECK(facts.device_count == 4);
}

TEST_CASE("cuInit's error is reported by number and name") {
  fake().cuda("999");
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false);
  CHECK(facts.status == gd::ChildStatus::ok);
  CHECK(facts.init_result == 999);
  CHECK(facts.init_error == "CUDA_ERROR_UNKNOWN");
  CHECK(facts.devices.empty());
}

TEST_CASE("a probe that crashes in cuInit names the signal and the call") {
  fake().cuda("crash");
  // Under AddressSanitizer the child would turn the SIGSEGV into a report
  // and an exit; the real gpudoctor is never built so.
  const char* sanitizer = std::getenv("ASAN_OPTIONS");
  const std::string saved = sanitizer ? sanitizer : "";
  ::setenv("ASAN_OPTIONS", ("handle_segv=0:" + saved).c_str(), 1);
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false);
  if (sanitizer) ::setenv("ASAN_OPTIONS", saved.c_str(), 1);
  else ::unsetenv("ASAN_OPTIONS");
  CHECK(facts.status == gd::ChildStatus::crashed);
  CHECK(facts.signal == SIGSEGV);
  CHECK(facts.signal_name == "SIGSEGV");
  CHECK(facts.stopped_in == "cuInit");
  CHECK(facts.cuda_version == "12.4");  // what it said before the crash is kept
}

TEST_CASE("a probe that hangs in cuInit is stopped at the deadline") {
  fake().cuda("hang");
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false, std::chrono::milliseconds(800));
  CHECK(facts.status == gd::ChildStatus::timed_out);
  CHECK(facts.stopped_in == "cuInit");
}

TEST_CASE("a library that exits inside cuInit is reported as such") {
  fake().cuda("exit");
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false);
  CHECK(facts.status == gd::ChildStatus::exited);
  CHECK(facts.stopped_in == "cuInit");
  CHECK(facts.reason == "it exited with status 3 before finishing");
}

TEST_CASE("the smoke test runs the embedded kernel on every device and checks the result") {
  fake().cuda("ok4");
  LiveHost host("/");
  auto facts = run_cuda_probe(host, true);
  REQUIRE(facts.smoke);
  REQUIRE(facts.smoke->size() == 4);
  for (const auto& gpu : *facts.smoke) {
    CHECK(gpu.passed);
    CHECK(gpu.ms);
  }
  CHECK(facts.smoke_passed == true);  // the outcome gpu-work, seen working
  CHECK(!run_cuda_probe(host, false).smoke_passed);  // no smoke test asked for: nothing seen
  fake().cuda("wrong");
  facts = run_cuda_probe(host, true);
  REQUIRE(facts.smoke);
  CHECK(facts.smoke_passed == false);
  CHECK(!facts.smoke->front().passed);
  CHECK(facts.smoke->front().step == "check");
  CHECK(facts.smoke->front().error == "element 5 is 23, not 22");
}

TEST_CASE("the nvml probe reports versions and per-GPU health, and only what the library has") {
  fake().nvml("ok");
  LiveHost host("/");
  const auto facts = run_nvml_probe(host);
  CHECK(facts.status == gd::ChildStatus::ok);
  CHECK(facts.init_result == 0);
  CHECK(facts.driver_version == "550.54.15");
  CHECK(facts.cuda_version == "12.4");
  REQUIRE(facts.devices.size() == 2);
  CHECK(facts.devices[0].remapped_rows_pending == false);
  CHECK(facts.devices[0].inforom_valid == true);
  CHECK(facts.devices[1].remapped_rows_pending == true);
  CHECK(facts.devices[1].inforom_valid == false);
  CHECK(facts.devices[1].memory_used_mib == 559);
  CHECK(facts.devices[1].compute_mode == gd::ComputeMode::Default);
  CHECK(facts.devices[0].mig_mode == gd::Setting::Enabled);
  CHECK(facts.devices[0].mig_devices == 3);  // handles 0-2 of at most 7 exist
  CHECK(facts.devices[1].mig_mode == gd::Setting::Disabled);
  CHECK(!facts.devices[1].mig_devices);
  CHECK(facts.devices[0].thermal_margin_c == 31);
  CHECK(facts.devices[1].thermal_margin_c == 3);
  // The driver's recovery action through nvmlDeviceGetFieldValues (field 230), as nvmlFieldValue_t lays it out.
  CHECK(facts.devices[0].recovery_action == gd::Action::none);
  CHECK(facts.devices[1].recovery_action == gd::Action::drain_and_reset);
  // The fabric through nvmlDeviceGetGpuFabricInfoV's version 3, which the fake refuses under any other version.
  CHECK(facts.devices[0].fabric_state == gd::FabricState::completed);
  CHECK(facts.devices[0].fabric_health == gd::FabricHealth::healthy);
  CHECK(facts.devices[0].fabric_issues == std::vector<gd::FabricIssue>{});
  CHECK(facts.devices[1].fabric_health == gd::FabricHealth::unhealthy);
  CHECK(facts.devices[1].fabric_issues == std::vector<gd::FabricIssue>{gd::FabricIssue::route_unhealthy});
  // The fake has no power or ECC functions: those facts are absent, not zero.
  CHECK(!facts.devices[1].power_draw_w);
  CHECK(!facts.devices[1].ecc_uncorrected_volatile);
  // Without NVLink, no GPU is asked for NVLink peer-to-peer.
  CHECK(!facts.devices[0].nvlinks);
  CHECK(!facts.devices[1].nvlink_p2p_peers);
}

TEST_CASE("the nvml probe asks NVLink peer-to-peer between the GPUs whose NVLinks are up") {
  fake().nvml("nvlink");
  LiveHost host("/");
  auto facts = run_nvml_probe(host);
  REQUIRE(facts.devices.size() == 2);
  CHECK(facts.devices[0].nvlinks == 18);
  for (const auto& device : facts.devices) {
    CHECK(device.nvlink_p2p_peers == 1);
    CHECK(device.nvlink_p2p_ok_peers == 1);
    CHECK(!device.nvlink_p2p_refused);
  }
  fake().nvml("nvlink-no-p2p");
  facts = run_nvml_probe(host);
  REQUIRE(facts.devices.size() == 2);
  for (const auto& device : facts.devices) {
    CHECK(device.nvlink_p2p_peers == 1);
    CHECK(device.nvlink_p2p_ok_peers == 0);
    CHECK(device.nvlink_p2p_refused == gd::P2pStatus::not_supported);
  }
}

TEST_CASE("the nvml probe reads Blackwell's NVLink recoveries summed over the links, where the per-link counters answer none") {
  fake().nvml("nvlink");  // links, but neither per-link counters nor recovery fields
  LiveHost host("/");
  auto facts = run_nvml_probe(host);
  REQUIRE(facts.devices.size() == 2);
  CHECK(!facts.devices[1].nvlink_errors);
  CHECK(!facts.devices[1].nvlink_recoveries);
  fake().nvml("nvlink5");
  facts = run_nvml_probe(host);
  REQUIRE(facts.devices.size() == 2);
  REQUIRE(facts.devices[1].nvlink_recoveries);
  CHECK(facts.devices[1].nvlink_recoveries->successful == 2);
  CHECK(facts.devices[1].nvlink_recoveries->failed == 1);
  CHECK(facts.devices[1].nvlink_recoveries->events == 3);
  REQUIRE(facts.devices[0].nvlink_recoveries);
  CHECK(facts.devices[0].nvlink_recoveries->failed == 0);
  CHECK(!facts.devices[1].nvlink_errors);
}

TEST_CASE("the nvml probe names the processes that hold a GPU, with their memory") {
  fake().nvml("busy");
  LiveHost host("/");
  const auto facts = run_nvml_probe(host);
  REQUIRE(facts.devices.size() == 2);
  CHECK(facts.devices[0].compute_mode == gd::ComputeMode::Exclusive_Process);
  CHECK(facts.devices[0].processes == 1);
  REQUIRE(facts.devices[0].process_list);
  REQUIRE(facts.devices[0].process_list->size() == 1);
  const auto& holder = facts.devices[0].process_list->front();
  CHECK(holder.pid == 878);
  CHECK(holder.name == "python3");
  CHECK(holder.used_mib == 612);
  CHECK(facts.devices[1].processes == 0);
  CHECK(facts.devices[1].process_list->empty());
}

TEST_CASE("NVML's library/driver mismatch is its init result") {
  fake().nvml("mismatch");
  LiveHost host("/");
  const auto facts = run_nvml_probe(host);
  CHECK(facts.status == gd::ChildStatus::ok);
  CHECK(facts.init_result == 18);
  CHECK(facts.init_error == "Driver/library version mismatch");
  CHECK(facts.devices.empty());
}

TEST_CASE("no driver library: the probe says dlopen's error") {
  ::setenv("LD_LIBRARY_PATH", "/nonexistent", 1);
  LiveHost host("/");
  const auto facts = run_cuda_probe(host, false);
  ::setenv("LD_LIBRARY_PATH", (fake().dir / "lib").c_str(), 1);
  // This machine may have a real libcuda; only where it has none is the error checked.
  if (!facts.library_loaded) {
    CHECK(facts.status == gd::ChildStatus::ok);
    REQUIRE(facts.library_error);
    CHECK(facts.library_error->find("libcuda.so.1") != std::string::npos);
  }
}

TEST_CASE("an answer that is not the protocol is garbled, and a replay without one is not-recorded") {
  ChildAnswer answer;
  answer.exit = 0;
  answer.output = "{\"begin\":\"cuInit\"}\nlibrary chatter\n{\"call\":\"cuInit\",\"result\":0}\n{\"done\":true}\n";
  auto facts = parse_cuda_probe(answer);
  CHECK(facts.status == gd::ChildStatus::ok);  // a library printing to stdout is not garbage
  CHECK(facts.init_result == 0);
  answer.output = "{\"begin\":\"cuInit\"}\n{\"call\":\"cuInit\",\"res\n{\"done\":true}\n";
  facts = parse_cuda_probe(answer);
  CHECK(facts.status == gd::ChildStatus::garbled);
  CHECK(facts.reason == "line 2 is not the probe's: '{\"call\":\"cuInit\",\"res'");
  ChildAnswer missing;
  missing.error = "not-recorded";
  CHECK(parse_nvml_probe(missing).status == gd::ChildStatus::not_recorded);
  ChildAnswer static_build;
  static_build.exit = 0;
  static_build.output = "{\"unavailable\":\"this gpudoctor is a static build\"}\n";
  facts = parse_cuda_probe(static_build);
  CHECK(facts.status == gd::ChildStatus::unavailable);
  CHECK(facts.reason == "this gpudoctor is a static build");
}

TEST_CASE("the NVML child's settings are NVML's numbers; a snapshot recorded before holds their names") {
  const auto facts = parse_nvml_probe(nvml_answer(
      "{\"nvml_device\":0,\"compute_mode\":3,\"mig_mode\":1,\"persistence_mode\":0,\"fabric_state\":2}\n"
      "{\"nvml_device\":1,\"compute_mode\":\"Prohibited\",\"mig_mode\":\"Disabled\",\"fabric_state\":\"completed\"}\n"
      "{\"nvml_device\":2,\"compute_mode\":7,\"mig_mode\":-1,\"persistence_mode\":\"Sometimes\",\"fabric_state\":true}\n"));
  REQUIRE(facts.devices.size() == 3);
  CHECK(facts.devices[0].compute_mode == ComputeMode::Exclusive_Process);
  CHECK(facts.devices[0].mig_mode == Setting::Enabled);
  CHECK(facts.devices[0].persistence_mode == Setting::Disabled);
  CHECK(facts.devices[0].fabric_state == FabricState::in_progress);
  CHECK(facts.devices[1].compute_mode == ComputeMode::Prohibited);
  CHECK(facts.devices[1].mig_mode == Setting::Disabled);
  CHECK(facts.devices[1].fabric_state == FabricState::completed);
  // A number NVML may add later, or junk, is no value: unknown, never a wrong name.
  CHECK_FALSE(facts.devices[2].compute_mode);
  CHECK_FALSE(facts.devices[2].mig_mode);
  CHECK_FALSE(facts.devices[2].persistence_mode);
  CHECK_FALSE(facts.devices[2].fabric_state);
}

TEST_CASE("NVLink peer-to-peer pairs are counted for both GPUs; MIG, unknown GPUs and junk are left out") {
  const auto facts = parse_nvml_probe(nvml_answer(
      "{\"nvml_device\":0,\"mig_mode\":0}\n{\"nvml_device\":1,\"mig_mode\":0}\n"
      "{\"nvml_device\":2,\"mig_mode\":0}\n{\"nvml_device\":3,\"mig_mode\":1}\n"
      "{\"call\":\"nvmlDeviceGetP2PStatus\",\"index\":\"nvlink\",\"pairs\":"
      "[[0,1,0],[0,2,4],[1,2,0],[0,3,5],[1,9,0],[2,2,0],[0,1],\"x\",[1,2,-1],[2,0,99]]}\n"));
  REQUIRE(facts.devices.size() == 4);
  // GPU 0: OK to 1, disabled by a registry key to 2; the pair with GPU 3 (MIG) does not count.
  CHECK(facts.devices[0].nvlink_p2p_peers == 3);  // [0,1], [0,2] and [2,0,99]
  CHECK(facts.devices[0].nvlink_p2p_ok_peers == 1);
  CHECK(facts.devices[0].nvlink_p2p_refused == gd::P2pStatus::disabled_by_regkey);
  CHECK(facts.devices[1].nvlink_p2p_peers == 2);
  CHECK(facts.devices[1].nvlink_p2p_ok_peers == 2);
  CHECK_FALSE(facts.devices[1].nvlink_p2p_refused);
  CHECK(facts.devices[2].nvlink_p2p_refused == gd::P2pStatus::disabled_by_regkey);
  CHECK_FALSE(facts.devices[3].nvlink_p2p_peers);  // in MIG mode
}

TEST_CASE("the fabric's health mask: four flags, then what is wrong with its configuration; junk is no fact") {
  const auto issues_of = [](const std::string& mask) {
    return parse_nvml_probe(nvml_answer("{\"nvml_device\":0,\"fabric_health_summary\":3,\"fabric_health_mask\":" + mask + "}\n")).devices.at(0);
  };
  using gd::FabricIssue;
  // Every flag false (2) and the configuration fine (1): nothing.
  CHECK(issues_of("426").fabric_issues == std::vector<FabricIssue>{});  // 0b1_10_10_10_10
  CHECK(issues_of("426").fabric_health == gd::FabricHealth::limited_capacity);
  // Degraded bandwidth and access-timeout recovery true, the partition missing.
  CHECK(issues_of("1129").fabric_issues ==  // 4 << 8 | 1 << 6 | 2 << 4 | 2 << 2 | 1
        std::vector<FabricIssue>{FabricIssue::degraded_bandwidth, FabricIssue::access_timeout_recovery, FabricIssue::no_partition});
  CHECK(issues_of("1280").fabric_issues == std::vector<FabricIssue>{FabricIssue::insufficient_nvlinks});  // 5 << 8
  CHECK_FALSE(issues_of("-1").fabric_issues);
  CHECK_FALSE(issues_of("\"bad\"").fabric_issues);
}

TEST_CASE("NVML's recovery action by its number; a VBIOS or link count unlike the peers' is marked, a tie or a lone GPU is not") {
  ChildAnswer answer;
  answer.exit = 0;
  answer.output =
      "{\"nvml_device\":0,\"name\":\"H100\",\"vbios\":\"96.00.99\",\"recovery_action\":0,\"nvlinks\":18,\"nvlinks_inactive\":[]}\n"
      "{\"nvml_device\":1,\"name\":\"H100\",\"vbios\":\"96.00.99\",\"recovery_action\":4,\"nvlinks\":18,\"nvlinks_inactive\":[2,3],"
      "\"nvlink_errors\":{\"replay\":7,\"recovery\":1,\"crc_flit\":40,\"crc_data\":0}}\n"
      "{\"nvml_device\":2,\"name\":\"H100\",\"vbios\":\"96.00.74\",\"recovery_action\":9}\n"
      "{\"nvml_device\":3,\"name\":\"L4\",\"vbios\":\"95.04\"}\n"
      "{\"nvml_device\":4,\"name\":\"A10\",\"vbios\":\"94.02\"}\n"
      "{\"nvml_device\":5,\"name\":\"A10\",\"vbios\":\"94.03\"}\n"
      "{\"done\":true}\n";
  const auto facts = parse_nvml_probe(answer);
  REQUIRE(facts.devices.size() == 6);
  CHECK(facts.devices[0].recovery_action == gd::Action::none);
  CHECK(facts.devices[1].recovery_action == gd::Action::drain_and_reset);  // NVML_GPU_RECOVERY_ACTION_DRAIN_AND_RESET
  CHECK_FALSE(facts.devices[2].recovery_action);                           // a value newer than gpudoctor: unknown
  CHECK_FALSE(facts.devices[0].vbios_of_the_others);
  CHECK(facts.devices[2].vbios_of_the_others == "96.00.99");  // two of three H100s carry 96.00.99
  CHECK_FALSE(facts.devices[3].vbios_of_the_others);           // alone of its name
  CHECK_FALSE(facts.devices[4].vbios_of_the_others);           // one against one: no majority
  CHECK_FALSE(facts.devices[5].vbios_of_the_others);
  CHECK_FALSE(facts.devices[0].nvlinks_active_of_peers);
  CHECK(facts.devices[1].nvlinks_active_of_peers == 18);
  CHECK(facts.devices[1].nvlinks_inactive == std::vector<std::int64_t>{2, 3});
  CHECK(facts.devices[1].nvlink_errors.value().crc_flit == 40);
  CHECK_FALSE(facts.devices[2].nvlinks);  // no NVLink: nothing said of links
}

}  // namespace gd
