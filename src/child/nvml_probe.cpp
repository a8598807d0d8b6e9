// The NVML half of the driver probe: the driver version and each device as NVML sees it.
#include "child/driver_probe_parts.h"

#include "gpudoctor_config.h"

#include <cstdio>
#include <optional>

// A static build never loads the driver (driver_probe_child.cpp says so instead).
#if !GPUDOCTOR_STATIC

namespace gd::driver_probe {
namespace {

// ---- NVML (nvml.h) ----
using nvmlReturn = int;
using nvmlDevice = void*;

struct Nvml {
  const Library& lib;

  std::string error_text(nvmlReturn result) const {
    auto* text_of = lib.get<const char*(nvmlReturn)>("nvmlErrorString");
    return text_of ? bounded(text_of(result), 200) : "NVML error " + std::to_string(result);
  }

  // Calls SYMBOL(device, args...) when the library has it; true on success.
  template <class... Args>
  bool ask(const char* symbol, nvmlDevice device, Args... args) const {
    auto* call = lib.get<nvmlReturn(nvmlDevice, Args...)>(symbol);
    return call && call(device, args...) == 0;
  }
};

constexpr std::pair<unsigned long long, const char*> k_throttle_reasons[] = {
    {0x4, "sw-power-cap"},          {0x8, "hw-slowdown"},         {0x20, "sw-thermal-slowdown"},
    {0x40, "hw-thermal-slowdown"},  {0x80, "hw-power-brake"},     {0x10, "sync-boost"},
};
constexpr nvmlReturn k_nvml_insufficient_size = 7, k_nvml_corrupted_inforom = 14;

// nvmlFieldValue_t: the field asked for, then NVML's answer, whose type
// value_type names (nvmlValueType_t).
struct FieldValue {
  unsigned field_id = 0, scope_id = 0;
  long long timestamp = 0, latency_usec = 0;
  unsigned value_type = 0;
  nvmlReturn result = -1;
  union {
    double d;
    unsigned ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
    int si;
    unsigned short us;
  } value{};
};
static_assert(sizeof(FieldValue) == 40);
constexpr unsigned k_field_gpu_recovery_action = 230;
// NVLink5 (Blackwell) counts link recoveries in field values, summed over
// the links where scopeId is UINT_MAX (as DCGM asks them from 4.5.3 on);
// nvmlDeviceGetNvLinkErrorCounter answers no more there.
constexpr unsigned k_field_nvlink_recovery_successful = 213, k_field_nvlink_recovery_failed = 214,
                   k_field_nvlink_recovery_events = 215;
constexpr unsigned k_scope_all_links = ~0U;

// A counter's value as NVML typed it; nothing for a type it may add later.
std::optional<long long> counter_value(const FieldValue& field) {
  switch (field.value_type) {  // NVML_VALUE_TYPE_*
    case 1: return field.value.ui;
    case 2: return static_cast<long long>(field.value.ul);
    case 3: return static_cast<long long>(field.value.ull);
    case 4: return field.value.sll;
    case 5: return field.value.si;
    case 6: return field.value.us;
    default: return std::nullopt;
  }
}

// nvmlProcessInfo_t (v2 and v3 alike): pid, usedGpuMemory, gpuInstanceId,
// computeInstanceId. Memory is ~0 where NVML cannot say (some containers).
struct ProcessInfo {
  unsigned pid;
  unsigned long long used_memory;
  unsigned gpu_instance, compute_instance;
};
constexpr std::size_t k_max_processes = 16;

// nvmlGpuFabricInfo_v3_t (nvmlDeviceGetGpuFabricInfoV): the fabric's state,
// and, where the driver has them (R550 and newer on NVSwitch and NVL
// systems), its health mask and NVIDIA's summary of it.
struct FabricInfoV3 {
  unsigned version = 0;
  unsigned char cluster_uuid[16] = {};
  nvmlReturn status = 0;
  unsigned clique_id = 0;
  unsigned char state = 0;
  unsigned health_mask = 0;
  unsigned char health_summary = 0;
};
static_assert(sizeof(FabricInfoV3) == 40);
constexpr unsigned k_fabric_info_v3 = sizeof(FabricInfoV3) | (3u << 24);  // NVML_STRUCT_VERSION(GpuFabricInfo, 3)

// nvmlMarginTemperature_v1_t (nvmlDeviceGetMarginTemperature, recent
// drivers; gpud asks it from R570): degrees C left before the nearest
// slowdown threshold (T.Limit).
struct MarginTemperature {
  unsigned version = sizeof(MarginTemperature) | (1u << 24);  // NVML_STRUCT_VERSION(MarginTemperature, 1)
  int margin = 0;
};
static_assert(sizeof(MarginTemperature) == 8);

void read_fabric(const Nvml& nvml, nvmlDevice device, json::object& line) {
  FabricInfoV3 fabric{.version = k_fabric_info_v3};
  if (nvml.ask("nvmlDeviceGetGpuFabricInfoV", device, static_cast<void*>(&fabric))) {
    line["fabric_state"] = fabric.state;
    line["fabric_health_summary"] = fabric.health_summary;
    line["fabric_health_mask"] = fabric.health_mask;
    return;
  }
  // Older drivers: nvmlGpuFabricInfo_t, clusterUuid[16], status, cliqueId, state (one byte).
  alignas(8) unsigned char old[64] = {};
  if (nvml.ask("nvmlDeviceGetGpuFabricInfo", device, static_cast<void*>(old))) line["fabric_state"] = old[24];
}

// The compute processes holding a context on the device, each with its name
// (nvmlSystemGetProcessName) and memory: who keeps an exclusive GPU busy.
void list_processes(const Nvml& nvml, nvmlDevice device, json::object& line) {
  auto* processes = nvml.lib.get<nvmlReturn(nvmlDevice, unsigned*, ProcessInfo*)>("nvmlDeviceGetComputeRunningProcesses_v3");
  if (!processes) return;
  ProcessInfo infos[k_max_processes] = {};
  unsigned count = k_max_processes;
  nvmlReturn result = processes(device, &count, infos);
  if (result == k_nvml_insufficient_size) {  // more than we list: ask for the count alone
    count = 0;
    result = processes(device, &count, nullptr);
    if (result == 0 || result == k_nvml_insufficient_size) line["processes"] = count;
    return;
  }
  if (result != 0) return;
  line["processes"] = count;
  auto* name_of = nvml.lib.get<nvmlReturn(unsigned, char*, unsigned)>("nvmlSystemGetProcessName");
  json::array listed;
  for (unsigned i = 0; i < count && i < k_max_processes; ++i) {
    json::object process{{"pid", infos[i].pid}};
    char name[256] = {};
    if (name_of && name_of(infos[i].pid, name, 255u) == 0) process["name"] = bounded(name, sizeof name);
    if (infos[i].used_memory != ~0ULL) process["used_mib"] = static_cast<std::int64_t>(infos[i].used_memory >> 20);
    listed.push_back(std::move(process));
  }
  line["process_list"] = std::move(listed);
}

// Blackwell's link recoveries, summed over its links: those that succeeded,
// those that failed, and all. One call; a GPU that answers none says nothing.
void read_nvlink_recoveries(const Nvml& nvml, nvmlDevice device, json::object& line) {
  FieldValue fields[3] = {{.field_id = k_field_nvlink_recovery_successful, .scope_id = k_scope_all_links},
                          {.field_id = k_field_nvlink_recovery_failed, .scope_id = k_scope_all_links},
                          {.field_id = k_field_nvlink_recovery_events, .scope_id = k_scope_all_links}};
  if (!nvml.ask("nvmlDeviceGetFieldValues", device, 3, fields)) return;
  json::object recoveries;
  const char* names[3] = {"successful", "failed", "events"};
  for (int i = 0; i < 3; ++i)
    if (const auto value = fields[i].result == 0 ? counter_value(fields[i]) : std::nullopt) recoveries[names[i]] = *value;
  if (!recoveries.empty()) line["nvlink_recoveries"] = std::move(recoveries);
}

// NVLink: the links NVML answers for (a part without NVLink answers for none)
// and which of them are down, with each GPU's error counters summed over its
// links (replay, recovery, CRC of flits and of data: the counters DCGM's
// NVLink watch and gpud read).
void list_nvlinks(const Nvml& nvml, nvmlDevice device, json::object& line) {
  constexpr unsigned k_max_links = 18;  // NVML_NVLINK_MAX_LINKS
  unsigned links = 0;
  json::array inactive;
  unsigned long long counters[4] = {};  // NVML_NVLINK_ERROR_DL_REPLAY, _RECOVERY, _CRC_FLIT, _CRC_DATA
  bool counted = false;
  for (unsigned link = 0; link < k_max_links; ++link) {
    int active = 0;
    if (!nvml.ask("nvmlDeviceGetNvLinkState", device, link, &active)) continue;
    ++links;
    if (!active) inactive.emplace_back(link);
    for (unsigned counter = 0; counter < 4; ++counter) {
      unsigned long long value = 0;
      if (nvml.ask("nvmlDeviceGetNvLinkErrorCounter", device, link, counter, &value)) {
        counters[counter] += value;
        counted = true;
      }
    }
  }
  if (links == 0) return;
  line["nvlinks"] = links;
  line["nvlinks_inactive"] = std::move(inactive);
  if (counted)
    line["nvlink_errors"] = json::object{{"replay", counters[0]}, {"recovery", counters[1]}, {"crc_flit", counters[2]}, {"crc_data", counters[3]}};
  else
    read_nvlink_recoveries(nvml, device, line);
}

// NVLink peer-to-peer between each pair of GPUs with an active NVLink, as
// NVML says it (nvmlDeviceGetP2PStatus, NVML_P2P_CAPS_INDEX_NVLINK): what
// vLLM's custom all-reduce and DeepEP ask before they rely on NVLink, and
// gpud's check. One line: [index, index, nvmlGpuP2PStatus_t] per pair that
// answered (0 is OK). 16 GPUs at most, 120 pairs: a node has 8 or fewer.
struct NvlinkGpu {
  unsigned index;
  nvmlDevice device;
};
constexpr int k_p2p_caps_index_nvlink = 2;
constexpr std::size_t k_max_p2p_gpus = 16;

bool has_active_nvlink(const json::object& line) {
  const auto* links = line.if_contains("nvlinks");
  const auto* inactive = line.if_contains("nvlinks_inactive");
  boost::system::error_code error;
  const auto count = links ? links->to_number<std::int64_t>(error) : 0;
  return links && !error && inactive && inactive->is_array() && count > static_cast<std::int64_t>(inactive->get_array().size());
}

void say_nvlink_p2p(const Nvml& nvml, const std::vector<NvlinkGpu>& gpus) {
  if (gpus.size() < 2) return;
  begin("nvmlDeviceGetP2PStatus");
  json::array pairs;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      int status = -1;
      if (nvml.ask("nvmlDeviceGetP2PStatus", gpus[i].device, gpus[j].device, k_p2p_caps_index_nvlink, &status))
        pairs.push_back(json::array{gpus[i].index, gpus[j].index, status});
    }
  say({{"call", "nvmlDeviceGetP2PStatus"}, {"index", "nvlink"}, {"pairs", std::move(pairs)}});
}

json::object nvml_device(const Nvml& nvml, unsigned index, nvmlDevice device, bool table) {
  json::object line{{"nvml_device", index}};
  char text[256] = {};
  if (nvml.ask("nvmlDeviceGetName", device, text, 255u)) line["name"] = bounded(text, sizeof text);
  char uuid[96] = {};
  if (nvml.ask("nvmlDeviceGetUUID", device, uuid, 95u)) line["uuid"] = bounded(uuid, sizeof uuid);
  // nvmlPciInfo_t (v3): busIdLegacy[16], five unsigned ints, busId[32].
  alignas(8) char pci[256] = {};
  if (nvml.ask("nvmlDeviceGetPciInfo_v3", device, static_cast<void*>(pci))) line["bus_id"] = bounded(pci + 36, 32);
  int major = 0, minor = 0;
  if (nvml.ask("nvmlDeviceGetCudaComputeCapability", device, &major, &minor))
    line["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
  unsigned long long memory[3] = {};  // nvmlMemory_t: total, free, used
  if (nvml.ask("nvmlDeviceGetMemoryInfo", device, static_cast<void*>(memory))) {
    line["memory_total_mib"] = static_cast<std::int64_t>(memory[0] >> 20);
    line["memory_used_mib"] = static_cast<std::int64_t>(memory[2] >> 20);
  }
  unsigned utilisation[2] = {};  // nvmlUtilization_t: gpu, memory
  if (nvml.ask("nvmlDeviceGetUtilizationRates", device, static_cast<void*>(utilisation))) line["utilization_percent"] = utilisation[0];
  unsigned value = 0;
  if (nvml.ask("nvmlDeviceGetTemperature", device, 0, &value)) line["temperature_c"] = value;
  if (MarginTemperature margin; nvml.ask("nvmlDeviceGetMarginTemperature", device, static_cast<void*>(&margin)))
    line["thermal_margin_c"] = margin.margin;
  if (nvml.ask("nvmlDeviceGetPowerUsage", device, &value)) line["power_draw_w"] = value / 1000.0;
  if (nvml.ask("nvmlDeviceGetEnforcedPowerLimit", device, &value)) line["power_limit_w"] = value / 1000.0;
  int state = 0;
  // Settings as NVML's numbers; the parent names them (facts/driver_probe_facts.h).
  if (nvml.ask("nvmlDeviceGetPersistenceMode", device, &state)) line["persistence_mode"] = state;
  if (nvml.ask("nvmlDeviceGetComputeMode", device, &state)) line["compute_mode"] = state;
  unsigned current = 0, pending = 0;
  if (nvml.ask("nvmlDeviceGetMigMode", device, &current, &pending)) {
    line["mig_mode"] = current;
    line["mig_mode_pending"] = pending;
  }
  unsigned most = 0;
  if (current && nvml.ask("nvmlDeviceGetMaxMigDeviceCount", device, &most)) {
    unsigned instances = 0;
    for (unsigned i = 0; i < most && i < 64; ++i) {
      nvmlDevice instance = nullptr;
      if (nvml.ask("nvmlDeviceGetMigDeviceHandleByIndex", device, i, &instance)) ++instances;
    }
    line["mig_devices"] = instances;
  }
  if (table) return line;
  char vbios[32] = {};  // NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE
  if (nvml.ask("nvmlDeviceGetVbiosVersion", device, vbios, static_cast<unsigned>(sizeof vbios))) line["vbios"] = bounded(vbios, sizeof vbios);
  int ecc = 0, ecc_pending = 0;
  if (nvml.ask("nvmlDeviceGetEccMode", device, &ecc, &ecc_pending)) {
    line["ecc_mode"] = ecc;
    line["ecc_mode_pending"] = ecc_pending;
  }
  // NVML_FI_DEV_GET_GPU_RECOVERY_ACTION (230, R570+): what the driver says the GPU needs now.
  FieldValue recovery{.field_id = k_field_gpu_recovery_action};
  if (nvml.ask("nvmlDeviceGetFieldValues", device, 1, &recovery) && recovery.result == 0)
    line["recovery_action"] = recovery.value.ui;
  unsigned long long errors = 0;
  if (nvml.ask("nvmlDeviceGetTotalEccErrors", device, 1, 0, &errors)) line["ecc_uncorrected_volatile"] = errors;
  if (nvml.ask("nvmlDeviceGetTotalEccErrors", device, 1, 1, &errors)) line["ecc_uncorrected_aggregate"] = errors;
  if (nvml.ask("nvmlDeviceGetRetiredPagesPendingStatus", device, &state)) line["retired_pages_pending"] = state != 0;
  unsigned corrected = 0, uncorrected = 0, remap_pending = 0, remap_failed = 0;
  if (nvml.ask("nvmlDeviceGetRemappedRows", device, &corrected, &uncorrected, &remap_pending, &remap_failed)) {
    line["remapped_rows_pending"] = remap_pending != 0;
    line["remapped_rows_failed"] = remap_failed != 0;
  }
  if (auto* validate = nvml.lib.get<nvmlReturn(nvmlDevice)>("nvmlDeviceValidateInforom")) {
    const nvmlReturn result = validate(device);
    if (result == 0) line["inforom_valid"] = true;
    else if (result == k_nvml_corrupted_inforom) line["inforom_valid"] = false;
  }
  unsigned long long reasons = 0;
  if (nvml.ask("nvmlDeviceGetCurrentClocksThrottleReasons", device, &reasons)) {
    json::array named;
    for (const auto& [bit, name] : k_throttle_reasons)
      if (reasons & bit) named.emplace_back(name);
    line["throttle_reasons"] = std::move(named);
  }
  list_processes(nvml, device, line);
  list_nvlinks(nvml, device, line);
  read_fabric(nvml, device, line);
  return line;
}

// The driver's versions and every GPU: one answer. False when NVML cannot count them.
bool say_devices(const Library& lib, const Nvml& nvml, bool table) {
  char version[96] = {};
  if (auto* get = lib.get<nvmlReturn(char*, unsigned)>("nvmlSystemGetDriverVersion"); get && get(version, 95) == 0)
    say({{"call", "nvmlSystemGetDriverVersion"}, {"result", 0}, {"value", bounded(version, sizeof version)}});
  int cuda_version = 0;
  if (auto* get = lib.get<nvmlReturn(int*)>("nvmlSystemGetCudaDriverVersion_v2"); get && get(&cuda_version) == 0)
    say({{"call", "nvmlSystemGetCudaDriverVersion"}, {"result", 0}, {"value", cuda_version}});
  unsigned count = 0;
  auto* get_count = lib.get<nvmlReturn(unsigned*)>("nvmlDeviceGetCount_v2");
  auto* handle_of = lib.get<nvmlReturn(unsigned, nvmlDevice*)>("nvmlDeviceGetHandleByIndex_v2");
  if (!get_count || !handle_of || get_count(&count) != 0) return false;
  say({{"call", "nvmlDeviceGetCount"}, {"result", 0}, {"value", count}});
  std::vector<NvlinkGpu> nvlinked;
  for (unsigned index = 0; index < count && index < 1024; ++index) {
    nvmlDevice device = nullptr;
    begin(("nvml device " + std::to_string(index)).c_str());
    if (handle_of(index, &device) != 0) continue;
    const auto line = nvml_device(nvml, index, device, table);
    if (!table && has_active_nvlink(line) && nvlinked.size() < k_max_p2p_gpus) nvlinked.push_back({index, device});
    say(line);
  }
  say_nvlink_p2p(nvml, nvlinked);
  return true;
}

}  // namespace

int probe_nvml(NvmlAsk ask) {
  begin("dlopen libnvidia-ml.so.1");
  Library lib("libnvidia-ml.so.1");
  if (!lib) return 0;
  say_mapped();
  const Nvml nvml{lib};
  auto* init = lib.get<nvmlReturn()>("nvmlInit_v2");
  if (!init) {
    say({{"call", "nvmlInit_v2"}, {"missing", true}});
    return 0;
  }
  begin("nvmlInit_v2");
  const nvmlReturn initialised = init();
  json::object init_line{{"call", "nvmlInit_v2"}, {"result", initialised}};
  if (initialised != 0) init_line["name"] = nvml.error_text(initialised);
  say(init_line);
  if (initialised != 0) return 0;
  for (bool first = true;; first = false) {
    if (!first) {  // each answer of a session reads as a whole one
      say({{"library", "libnvidia-ml.so.1"}, {"loaded", true}});
      say_mapped();
      say(init_line);
    }
    if (!say_devices(lib, nvml, ask.table) || !ask.repeat) break;
    say({{"done", true}});
    end_answer();
    if (!asked_again()) break;
  }
  if (auto* shutdown = lib.get<nvmlReturn()>("nvmlShutdown")) shutdown();
  return 0;
}

}  // namespace gd::driver_probe

#endif
