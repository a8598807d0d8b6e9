#include "probes/driver_probe.h"

#include "probes/child_ending.h"
#include "util/json_fields.h"
#include "util/text.h"

#include <boost/json.hpp>

#include <algorithm>
#include <iterator>
#include <map>

namespace gd {
namespace json = boost::json;

namespace {

constexpr std::size_t k_max_lines = 20000;  // 1024 devices, a few lines each, fit easily
constexpr std::size_t k_max_items = 1024;

// A setting the NVML child writes as NVML's number (older snapshots hold its
// name); a number outside the enum is no value.
template <NamedEnum E>
std::optional<E> enum_field(const json::object& line, std::string_view key) {
  const auto* value = line.if_contains(key);
  if (!value) return std::nullopt;
  if (value->is_string()) return enum_from_name<E>(value->get_string());
  const auto number = value->is_int64() ? value->get_int64() : -1;
  if (number < 0 || static_cast<std::size_t>(number) >= enum_names<E>().size()) return std::nullopt;
  return static_cast<E>(number);
}

// NVML_GPU_FABRIC_HEALTH_MASK_*: four two-bit fields, each 1 where it is
// so (degraded bandwidth, route recovery, route unhealthy, access timeout
// recovery), then four bits of configuration (1: nothing wrong; 2-5: what is).
std::vector<FabricIssue> fabric_issues(std::int64_t mask) {
  std::vector<FabricIssue> issues;
  constexpr FabricIssue k_flags[] = {FabricIssue::degraded_bandwidth, FabricIssue::route_recovery, FabricIssue::route_unhealthy,
                                     FabricIssue::access_timeout_recovery};
  for (unsigned field = 0; field < 4; ++field)
    if (((mask >> (2 * field)) & 0x3) == 1) issues.push_back(k_flags[field]);
  constexpr FabricIssue k_configuration[] = {FabricIssue::incorrect_sysguid, FabricIssue::incorrect_chassis_serial,
                                             FabricIssue::no_partition, FabricIssue::insufficient_nvlinks};
  if (const auto configuration = (mask >> 8) & 0xF; configuration >= 2 && configuration <= 5) issues.push_back(k_configuration[configuration - 2]);
  return issues;
}

std::optional<std::string> text_of(const json::object& line, std::string_view key, std::size_t max = 200) {
  const auto text = optional_string(line, key);
  if (!text) return std::nullopt;
  return printable(*text, max);
}

// Walks the child's lines: the outcome fields common to both children are
// filled here, each other line goes to on_line. Returns whether "done" came.
template <class OnLine>
void read_answer(const ChildAnswer& answer, ChildOutcomeFacts& facts, OnLine on_line) {
  if (answer.error) {
    facts.status = unasked_status(*answer.error);
    if (facts.status == ChildStatus::cannot_start) facts.reason = printable(*answer.error, 80);
    return;
  }
  bool done = false;
  std::optional<std::string> garbled, unavailable;
  std::size_t count = 0;
  for (auto raw : lines(answer.output)) {
    // Libraries may print to stdout too; only lines that look like ours must parse.
    if (trim(raw).empty() || trim(raw).front() != '{') continue;
    if (++count > k_max_lines) {
      garbled = "more than " + std::to_string(k_max_lines) + " lines";
      break;
    }
    boost::system::error_code error;
    auto parsed = json::parse(raw, error);
    if (error || !parsed.is_object()) {
      garbled = "line " + std::to_string(count) + " is not the probe's: '" + printable(raw, 80) + "'";
      break;
    }
    const auto& line = parsed.as_object();
    if (auto step = text_of(line, "begin", 80)) facts.stopped_in = *step;
    else if (line.contains("done")) done = true;
    else if (auto why = text_of(line, "unavailable", 300)) unavailable = *why;
    else if (line.contains("library")) {
      facts.library_loaded = bool_field(line, "loaded").value_or(false);
      facts.library_error = text_of(line, "error", 400);
    } else if (const auto* mapped = line.if_contains("mapped"); mapped && mapped->is_array()) {
      for (const auto& path : mapped->get_array())
        if (path.is_string() && facts.mapped.size() < 64) facts.mapped.push_back(printable(path.get_string(), 300));
    } else {
      on_line(line);
    }
  }
  if (unavailable) {
    facts.status = ChildStatus::unavailable;
    facts.reason = *unavailable;
    facts.stopped_in.reset();
  } else if (note_abnormal_end(answer, facts)) {  // timed-out or crashed: set
  } else if (garbled) {
    facts.status = ChildStatus::garbled;
    facts.reason = *garbled;
  } else if (!done) {
    // Some libraries call exit() from inside an initialiser.
    facts.status = ChildStatus::exited;
    facts.reason = "it exited with status " + std::to_string(answer.exit.value_or(-1)) + " before finishing";
  } else {
    facts.status = ChildStatus::ok;
    facts.stopped_in.reset();
  }
}

std::string cuda_version_text(std::int64_t version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// NVML_FI_DEV_GET_GPU_RECOVERY_ACTION's values (nvmlDeviceGpuRecoveryAction_t):
// NONE, GPU_RESET, NODE_REBOOT, DRAIN_P2P, DRAIN_AND_RESET; newer ones are unknown.
std::optional<Action> recovery_action(const json::object& line) {
  const auto value = int_field(line, "recovery_action");
  return value ? driver_recovery_action(*value) : std::nullopt;
}

// GPUs of one name should carry one VBIOS (Azure's and Meta's health checks
// fail a node where they do not): a GPU whose VBIOS differs from the one most
// GPUs of its name have is marked with theirs. A tie marks nothing.
void mark_odd_vbios(std::vector<NvmlDeviceFacts>& devices) {
  std::map<std::string, std::map<std::string, int>> counts;  // name -> vbios -> GPUs
  for (const auto& device : devices)
    if (device.name && device.vbios) ++counts[*device.name][*device.vbios];
  for (auto& device : devices) {
    if (!device.name || !device.vbios) continue;
    const auto& versions = counts[*device.name];
    const auto most = std::max_element(versions.begin(), versions.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    const bool tie = std::count_if(versions.begin(), versions.end(), [&](const auto& entry) { return entry.second == most->second; }) > 1;
    if (!tie && most->first != *device.vbios) device.vbios_of_the_others = most->first;
  }
}

void read_nvlinks(const json::object& line, NvmlDeviceFacts& device) {
  device.nvlinks = int_field(line, "nvlinks");
  if (!device.nvlinks) return;
  device.nvlinks_inactive.emplace();
  if (const auto* inactive = line.if_contains("nvlinks_inactive"); inactive && inactive->is_array())
    for (const auto& link : inactive->get_array())
      if (const auto number = as_int(&link); number && device.nvlinks_inactive->size() < 32) device.nvlinks_inactive->push_back(*number);
  if (const auto* errors = line.if_contains("nvlink_errors"); errors && errors->is_object()) {
    const auto& counters = errors->get_object();
    device.nvlink_errors = NvlinkErrorFacts{.replay = int_field(counters, "replay").value_or(0),
                                            .recovery = int_field(counters, "recovery").value_or(0),
                                            .crc_flit = int_field(counters, "crc_flit").value_or(0),
                                            .crc_data = int_field(counters, "crc_data").value_or(0)};
  }
  if (const auto* recoveries = line.if_contains("nvlink_recoveries"); recoveries && recoveries->is_object()) {
    const auto& counters = recoveries->get_object();
    device.nvlink_recoveries = NvlinkRecoveryFacts{.successful = int_field(counters, "successful"),
                                                   .failed = int_field(counters, "failed"),
                                                   .events = int_field(counters, "events")};
  }
}

// Links down by design (a PCIe part bridged to one peer uses some of its
// links) are down on every GPU of the model alike; a GPU with fewer active
// links than its peers has lost some.
void mark_fewer_nvlinks(std::vector<NvmlDeviceFacts>& devices) {
  const auto active = [](const NvmlDeviceFacts& device) {
    return *device.nvlinks - static_cast<std::int64_t>(device.nvlinks_inactive->size());
  };
  std::map<std::string, std::int64_t> most;  // name -> most active links
  for (const auto& device : devices)
    if (device.name && device.nvlinks) most[*device.name] = std::max(most[*device.name], active(device));
  // A GPU with no active link at all is, far more often, a PCIe card without a
  // bridge beside bridged ones than an SXM part that lost every link.
  for (auto& device : devices)
    if (device.name && device.nvlinks && active(device) > 0 && active(device) < most[*device.name])
      device.nvlinks_active_of_peers = most[*device.name];
}

// The NVML child's nvmlDeviceGetP2PStatus line: [index, index, status] per
// pair of GPUs with an active NVLink, given to both GPUs of each pair.
struct P2pPair {
  std::int64_t first, second, status;
};

std::vector<P2pPair> read_p2p_pairs(const json::object& line) {
  std::vector<P2pPair> pairs;
  const auto* list = line.if_contains("pairs");
  if (!list || !list->is_array()) return pairs;
  for (const auto& item : list->get_array()) {
    const auto* fields = item.if_array();
    if (!fields || fields->size() != 3 || pairs.size() >= 2048) continue;
    const auto first = as_int(&(*fields)[0]), second = as_int(&(*fields)[1]), status = as_int(&(*fields)[2]);
    if (first && second && status && *first != *second && *status >= 0) pairs.push_back({*first, *second, *status});
  }
  return pairs;
}

void mark_nvlink_p2p(std::vector<NvmlDeviceFacts>& devices, const std::vector<P2pPair>& pairs) {
  const auto device_of = [&](std::int64_t index) -> NvmlDeviceFacts* {
    for (auto& device : devices)
      if (device.index == index) return &device;
    return nullptr;
  };
  for (const auto& pair : pairs) {
    auto* first = device_of(pair.first);
    auto* second = device_of(pair.second);
    // MIG has no peer-to-peer: an allocation, not a fault.
    if (!first || !second || first->mig_mode == Setting::Enabled || second->mig_mode == Setting::Enabled) continue;
    const auto status = pair.status < static_cast<std::int64_t>(enum_names<P2pStatus>().size()) ? static_cast<P2pStatus>(pair.status)
                                                                                                : P2pStatus::unknown;
    for (auto* device : {first, second}) {
      device->nvlink_p2p_peers = device->nvlink_p2p_peers.value_or(0) + 1;
      device->nvlink_p2p_ok_peers = device->nvlink_p2p_ok_peers.value_or(0) + (status == P2pStatus::ok ? 1 : 0);
      if (status != P2pStatus::ok && !device->nvlink_p2p_refused) device->nvlink_p2p_refused = status;
    }
  }
}

}  // namespace

CudaProbeFacts parse_cuda_probe(const ChildAnswer& answer) {
  CudaProbeFacts facts;
  read_answer(answer, facts, [&](const json::object& line) {
    if (auto call = text_of(line, "call", 80)) {
      const auto result = int_field(line, "result");
      if (*call == "cuDriverGetVersion" && result == 0) {
        facts.driver_api_version = int_field(line, "value");
        if (facts.driver_api_version && *facts.driver_api_version > 0) facts.cuda_version = cuda_version_text(*facts.driver_api_version);
      } else if (*call == "cuInit") {
        facts.init_result = result;
        facts.init_error = text_of(line, "name", 80);
        if (result == 0) facts.init_error = "CUDA_SUCCESS";
      } else if (*call == "cuDeviceGetCount" && result == 0) {
        facts.device_count = int_field(line, "value");
      }
    } else if (auto index = int_field(line, "device"); index && facts.devices.size() < k_max_items) {
      CudaDeviceFacts device;
      device.index = *index;
      device.name = text_of(line, "name", 120);
      device.uuid = text_of(line, "uuid", 80);
      device.bus_id = text_of(line, "bus_id", 40);
      device.compute_capability = text_of(line, "compute_capability", 12);
      device.memory_total_mib = int_field(line, "memory_total_mib");
      facts.devices.push_back(std::move(device));
    } else if (auto smoked = int_field(line, "smoke")) {
      if (!facts.smoke) facts.smoke.emplace();
      if (facts.smoke->size() >= k_max_items) return;
      SmokeFacts smoke;
      smoke.index = *smoked;
      smoke.passed = bool_field(line, "passed").value_or(false);
      smoke.step = text_of(line, "step", 80);
      smoke.error = text_of(line, "name", 200);
      smoke.log = text_of(line, "log", 1000);
      smoke.ms = number_field(line, "ms");
      facts.smoke->push_back(std::move(smoke));
    }
  });
  // The outcome "gpu-work" (rules/tables/outcomes.json): a kernel ran on every device CUDA saw.
  if (facts.smoke && !facts.smoke->empty())
    facts.smoke_passed = std::all_of(facts.smoke->begin(), facts.smoke->end(), [](const SmokeFacts& smoke) { return smoke.passed; }) &&
                         static_cast<std::int64_t>(facts.smoke->size()) >= facts.device_count.value_or(0);
  return facts;
}

NvmlProbeFacts parse_nvml_probe(const ChildAnswer& answer) {
  NvmlProbeFacts facts;
  std::vector<P2pPair> p2p;
  read_answer(answer, facts, [&](const json::object& line) {
    if (auto call = text_of(line, "call", 80)) {
      const auto result = int_field(line, "result");
      if (*call == "nvmlInit_v2") {
        facts.init_result = result;
        facts.init_error = result == 0 ? std::optional<std::string>("Success") : text_of(line, "name", 200);
      } else if (*call == "nvmlSystemGetDriverVersion" && result == 0) {
        facts.driver_version = text_of(line, "value", 40);
      } else if (*call == "nvmlSystemGetCudaDriverVersion" && result == 0) {
        if (auto version = int_field(line, "value"); version && *version > 0) facts.cuda_version = cuda_version_text(*version);
      } else if (*call == "nvmlDeviceGetCount" && result == 0) {
        facts.device_count = int_field(line, "value");
      } else if (*call == "nvmlDeviceGetP2PStatus") {
        p2p = read_p2p_pairs(line);
      }
    } else if (auto index = int_field(line, "nvml_device"); index && facts.devices.size() < k_max_items) {
      NvmlDeviceFacts device;
      device.index = *index;
      device.name = text_of(line, "name", 120);
      device.uuid = text_of(line, "uuid", 80);
      device.bus_id = text_of(line, "bus_id", 40);
      device.compute_capability = text_of(line, "compute_capability", 12);
      device.memory_total_mib = int_field(line, "memory_total_mib");
      device.memory_used_mib = int_field(line, "memory_used_mib");
      if (device.memory_total_mib && *device.memory_total_mib > 0 && device.memory_used_mib && *device.memory_used_mib >= 0)
        device.memory_used_percent = *device.memory_used_mib * 100 / *device.memory_total_mib;
      device.utilization_percent = int_field(line, "utilization_percent");
      device.temperature_c = int_field(line, "temperature_c");
      device.thermal_margin_c = int_field(line, "thermal_margin_c");
      device.power_draw_w = number_field(line, "power_draw_w");
      device.power_limit_w = number_field(line, "power_limit_w");
      device.persistence_mode = enum_field<Setting>(line, "persistence_mode");
      device.compute_mode = enum_field<ComputeMode>(line, "compute_mode");
      device.mig_mode = enum_field<Setting>(line, "mig_mode");
      device.mig_mode_pending = enum_field<Setting>(line, "mig_mode_pending");
      device.ecc_mode = enum_field<Setting>(line, "ecc_mode");
      device.ecc_mode_pending = enum_field<Setting>(line, "ecc_mode_pending");
      device.vbios = text_of(line, "vbios", 40);
      device.recovery_action = recovery_action(line);
      read_nvlinks(line, device);
      device.mig_devices = int_field(line, "mig_devices");
      device.ecc_uncorrected_volatile = int_field(line, "ecc_uncorrected_volatile");
      device.ecc_uncorrected_aggregate = int_field(line, "ecc_uncorrected_aggregate");
      device.retired_pages_pending = bool_field(line, "retired_pages_pending");
      device.remapped_rows_pending = bool_field(line, "remapped_rows_pending");
      device.remapped_rows_failed = bool_field(line, "remapped_rows_failed");
      device.inforom_valid = bool_field(line, "inforom_valid");
      device.processes = int_field(line, "processes");
      if (const auto* listed = line.if_contains("process_list"); listed && listed->is_array()) {
        device.process_list.emplace();
        for (const auto& entry : listed->get_array()) {
          const auto* process = entry.if_object();
          const auto pid = process ? int_field(*process, "pid") : std::nullopt;
          if (!pid || device.process_list->size() >= 16) continue;
          device.process_list->push_back({.pid = *pid, .name = text_of(*process, "name", 80), .used_mib = int_field(*process, "used_mib")});
        }
      }
      device.fabric_state = enum_field<FabricState>(line, "fabric_state");
      device.fabric_health = enum_field<FabricHealth>(line, "fabric_health_summary");
      if (const auto mask = int_field(line, "fabric_health_mask"); mask && *mask >= 0 && *mask <= 0xFFFFFFFF)
        device.fabric_issues = fabric_issues(*mask);
      if (const auto* reasons = line.if_contains("throttle_reasons"); reasons && reasons->is_array()) {
        device.throttle_reasons.emplace();
        for (const auto& reason : reasons->get_array())
          if (reason.is_string() && device.throttle_reasons->size() < 16) device.throttle_reasons->push_back(printable(reason.get_string(), 40));
      }
      facts.devices.push_back(std::move(device));
    }
  });
  mark_odd_vbios(facts.devices);
  mark_fewer_nvlinks(facts.devices);
  mark_nvlink_p2p(facts.devices, p2p);
  return facts;
}

ChildRequest cuda_probe_request(bool smoke, std::chrono::milliseconds deadline) {
  std::vector<std::string> args{"cuda"};
  if (smoke) args.emplace_back("smoke");
  return {ChildKind::driver_probe, std::move(args), deadline};
}

ChildRequest nvml_probe_request(std::chrono::milliseconds deadline, bool table) {
  return {ChildKind::driver_probe, table ? std::vector<std::string>{"nvml", "table"} : std::vector<std::string>{"nvml"}, deadline};
}

ChildRequest nvml_table_session_request(std::chrono::milliseconds deadline) {
  return {ChildKind::driver_probe, {"nvml", "table", "repeat"}, deadline};
}

CudaProbeFacts run_cuda_probe(ChildEvidence& children, bool smoke, std::chrono::milliseconds deadline) {
  return parse_cuda_probe(children.ask(cuda_probe_request(smoke, deadline)));
}

NvmlProbeFacts run_nvml_probe(ChildEvidence& children, std::chrono::milliseconds deadline, bool table) {
  return parse_nvml_probe(children.ask(nvml_probe_request(deadline, table)));
}

}  // namespace gd
