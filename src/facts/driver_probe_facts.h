#pragma once
// What the driver said when a child process loaded it (driver-libs layer):
// libcuda.so.1's cuInit and devices, libnvidia-ml.so.1's versions and
// per-GPU health, and the smoke test. Every field comes from the child's
// answer; a child that crashed or hung leaves `status` saying so and
// `stopped_in` naming the call it was in.

#include "facts/child_status.h"
#include "model/action.h"
#include "model/fact_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// A GPU's settings as NVML and nvidia-smi name them (nvidia-smi prints
// [N/A] for a setting the GPU lacks: no value).
enum class ComputeMode { Default, Exclusive_Thread, Prohibited, Exclusive_Process };  // NVML's order: nvmlComputeMode_t
template <>
struct EnumTable<ComputeMode> {
  static constexpr std::array names{"Default", "Exclusive_Thread", "Prohibited", "Exclusive_Process"};
};
inline bool is_exclusive(ComputeMode mode) { return mode == ComputeMode::Exclusive_Thread || mode == ComputeMode::Exclusive_Process; }

enum class Setting { Disabled, Enabled };  // MIG and persistence mode; NVML's order: nvmlEnableState_t
template <>
struct EnumTable<Setting> {
  static constexpr std::array names{"Disabled", "Enabled"};
};

// NVLink fabric registration, nvmlGpuFabricState_t in order.
enum class FabricState { not_supported, not_started, in_progress, completed };
template <>
struct EnumTable<FabricState> {
  static constexpr std::array names{"not-supported", "not-started", "in-progress", "completed"};
};

// NVIDIA's summary of a GPU's NVLink fabric health, nvmlGpuFabricInfo_v3_t
// healthSummary in order (R550 and newer, NVSwitch and NVL systems).
enum class FabricHealth { not_supported, healthy, unhealthy, limited_capacity };
template <>
struct EnumTable<FabricHealth> {
  static constexpr std::array names{"not-supported", "healthy", "unhealthy", "limited-capacity"};
};

// NVML's answer for peer-to-peer between two GPUs (nvmlGpuP2PStatus_t, in order).
enum class P2pStatus { ok, chipset_not_supported, gpu_not_supported, ioh_topology_not_supported, disabled_by_regkey, not_supported, unknown };
template <>
struct EnumTable<P2pStatus> {
  static constexpr std::array names{"ok",          "chipset-not-supported", "gpu-not-supported", "ioh-topology-not-supported",
                                    "disabled-by-regkey", "not-supported",  "unknown"};
};

// What the fabric's health mask says is wrong (NVML_GPU_FABRIC_HEALTH_MASK_*).
enum class FabricIssue {
  degraded_bandwidth,
  route_recovery,
  route_unhealthy,
  access_timeout_recovery,
  incorrect_sysguid,
  incorrect_chassis_serial,
  no_partition,
  insufficient_nvlinks,
};
template <>
struct EnumTable<FabricIssue> {
  static constexpr std::array names{"degraded-bandwidth", "route-recovery",           "route-unhealthy", "access-timeout-recovery",
                                    "incorrect-sysguid",  "incorrect-chassis-serial", "no-partition",    "insufficient-nvlinks"};
};

struct CudaDeviceFacts {
  std::int64_t index = 0;
  std::optional<std::string> name, uuid, bus_id, compute_capability;
  std::optional<std::int64_t> memory_total_mib;

  template <class F>
  void fields(F& f) const {
    f("index", index, "CUDA's device ordinal (after CUDA_VISIBLE_DEVICES)");
    f("name", name, "cuDeviceGetName");
    f("uuid", uuid, "cuDeviceGetUuid, GPU-...");
    f("bus_id", bus_id, "cuDeviceGetPCIBusId, 0000:1B:00.0");
    f("compute_capability", compute_capability, "major.minor from cuDeviceGetAttribute");
    f("memory_total_mib", memory_total_mib, "cuDeviceTotalMem, MiB");
  }
};

struct SmokeFacts {
  std::int64_t index = 0;
  bool passed = false;
  std::optional<std::string> step, error, log;
  std::optional<double> ms;

  template <class F>
  void fields(F& f) const {
    f("index", index, "CUDA's device ordinal");
    f("passed", passed, "the kernel ran and every element came back right");
    f("step", step, "the call that failed: cuDevicePrimaryCtxRetain, cuModuleLoadDataEx, cuLaunchKernel, ...");
    f("error", error, "its error name, or what was wrong with the result");
    f("log", log, "the JIT compiler's error log, when loading the PTX failed");
    f("ms", ms, "milliseconds from context to checked result");
  }
};

struct GpuProcessFacts {
  std::int64_t pid = 0;
  std::optional<std::string> name;
  std::optional<std::int64_t> used_mib;

  template <class F>
  void fields(F& f) const {
    f("pid", pid, "its process id (in the driver's PID namespace: the host's, seen from a container)");
    f("name", name, "nvmlSystemGetProcessName");
    f("used_mib", used_mib, "GPU memory it holds, MiB");
  }
};

// NVLink error counters, summed over a GPU's links since the driver loaded.
struct NvlinkErrorFacts {
  std::int64_t replay = 0, recovery = 0, crc_flit = 0, crc_data = 0;

  template <class F>
  void fields(F& f) const {
    f("replay", replay, "NVML_NVLINK_ERROR_DL_REPLAY");
    f("recovery", recovery, "NVML_NVLINK_ERROR_DL_RECOVERY");
    f("crc_flit", crc_flit, "NVML_NVLINK_ERROR_DL_CRC_FLIT");
    f("crc_data", crc_data, "NVML_NVLINK_ERROR_DL_CRC_DATA");
  }
};

// NVLink5 (Blackwell), where the per-link error counters answer no more:
// link recoveries summed over the links, each as NVML answered it.
struct NvlinkRecoveryFacts {
  std::optional<std::int64_t> successful, failed, events;

  template <class F>
  void fields(F& f) const {
    f("successful", successful, "NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_SUCCESSFUL_EVENTS: a link retrained and carried on");
    f("failed", failed, "NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS: a link that could not be brought back");
    f("events", events, "NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_EVENTS: all recoveries");
  }
};

struct NvmlDeviceFacts {
  std::int64_t index = 0;
  std::optional<std::string> name, uuid, bus_id, compute_capability;
  std::optional<Setting> persistence_mode, mig_mode, mig_mode_pending, ecc_mode, ecc_mode_pending;
  std::optional<ComputeMode> compute_mode;
  std::optional<std::string> vbios, vbios_of_the_others;
  std::optional<Action> recovery_action;
  std::optional<std::int64_t> nvlinks, nvlinks_active_of_peers;
  std::optional<std::vector<std::int64_t>> nvlinks_inactive;
  std::optional<NvlinkErrorFacts> nvlink_errors;
  std::optional<NvlinkRecoveryFacts> nvlink_recoveries;
  std::optional<std::int64_t> nvlink_p2p_peers, nvlink_p2p_ok_peers;
  std::optional<P2pStatus> nvlink_p2p_refused;
  std::optional<FabricState> fabric_state;
  std::optional<FabricHealth> fabric_health;
  std::optional<std::vector<FabricIssue>> fabric_issues;
  std::optional<std::int64_t> memory_total_mib, memory_used_mib, memory_used_percent, utilization_percent, temperature_c, processes, mig_devices;
  std::optional<std::int64_t> thermal_margin_c;
  std::optional<std::int64_t> ecc_uncorrected_volatile, ecc_uncorrected_aggregate;
  std::optional<double> power_draw_w, power_limit_w;
  std::optional<bool> retired_pages_pending, remapped_rows_pending, remapped_rows_failed, inforom_valid;
  std::optional<std::vector<std::string>> throttle_reasons;
  std::optional<std::vector<GpuProcessFacts>> process_list;

  template <class F>
  void fields(F& f) const {
    f("index", index, "NVML's index (all GPUs, whatever CUDA_VISIBLE_DEVICES says)");
    f("name", name, "nvmlDeviceGetName");
    f("uuid", uuid, "nvmlDeviceGetUUID");
    f("bus_id", bus_id, "nvmlDeviceGetPciInfo busId");
    f("compute_capability", compute_capability, "nvmlDeviceGetCudaComputeCapability");
    f("memory_total_mib", memory_total_mib, "memory total, MiB");
    f("memory_used_mib", memory_used_mib, "memory used, MiB");
    f("memory_used_percent", memory_used_percent, "memory used, percent of the total (the driver's own reservation is well under 1%)");
    f("utilization_percent", utilization_percent, "GPU utilisation over the last sample period");
    f("temperature_c", temperature_c, "GPU temperature, degrees C");
    f("thermal_margin_c", thermal_margin_c,
      "degrees C left before the GPU slows itself down (nvmlDeviceGetMarginTemperature, T.Limit; recent drivers; "
      "absent where the driver does not say; some drivers answer 0 where they cannot tell, which gpud reads as not said)");
    f("power_draw_w", power_draw_w, "power draw, W");
    f("power_limit_w", power_limit_w, "enforced power limit, W");
    f("persistence_mode", persistence_mode, "nvmlDeviceGetPersistenceMode");
    f("compute_mode", compute_mode, "nvmlDeviceGetComputeMode");
    f("mig_mode", mig_mode, "current MIG mode");
    f("mig_mode_pending", mig_mode_pending, "the MIG mode the next GPU reset brings");
    f("ecc_mode", ecc_mode, "current ECC mode (nvmlDeviceGetEccMode)");
    f("ecc_mode_pending", ecc_mode_pending, "the ECC mode the next GPU reset brings");
    f("vbios", vbios, "nvmlDeviceGetVbiosVersion");
    f("vbios_of_the_others", vbios_of_the_others,
      "set when this GPU's VBIOS differs from the one most other GPUs of its name here have: theirs");
    f("nvlinks", nvlinks, "the NVLinks NVML answers for (absent: a part without NVLink)");
    f("nvlinks_inactive", nvlinks_inactive, "those that are down, by link number");
    f("nvlinks_active_of_peers", nvlinks_active_of_peers,
      "set when this GPU has fewer active NVLinks than another GPU of its name here: the most any of them has");
    f("nvlink_errors", nvlink_errors, "NVLink error counters, summed over the links (before Blackwell)");
    f("nvlink_recoveries", nvlink_recoveries,
      "Blackwell's NVLink recovery counters, summed over the links (field values with scopeId UINT_MAX), where the "
      "per-link error counters answer none");
    f("nvlink_p2p_peers", nvlink_p2p_peers,
      "the other GPUs with an active NVLink that NVML answered NVLink peer-to-peer for (nvmlDeviceGetP2PStatus, "
      "NVML_P2P_CAPS_INDEX_NVLINK; 16 GPUs at most); a pair with a GPU in MIG mode is left out, as MIG has no peer-to-peer");
    f("nvlink_p2p_ok_peers", nvlink_p2p_ok_peers, "of those, the ones NVML says this GPU reaches over NVLink");
    f("nvlink_p2p_refused", nvlink_p2p_refused, "what NVML said of the first of those it does not reach");
    f("recovery_action", recovery_action,
      "what the driver says the GPU needs now (NVML_FI_DEV_GET_GPU_RECOVERY_ACTION, R570 and newer): none, reset-gpu, "
      "reboot-node or drain-and-reset (NVML's DRAIN_P2P and DRAIN_AND_RESET)");
    f("mig_devices", mig_devices, "MIG mode: the MIG devices (compute instances) that exist");
    f("ecc_uncorrected_volatile", ecc_uncorrected_volatile, "uncorrected ECC errors since the driver loaded");
    f("ecc_uncorrected_aggregate", ecc_uncorrected_aggregate, "uncorrected ECC errors over the GPU's life");
    f("retired_pages_pending", retired_pages_pending, "a page retirement waits for the next driver reload (pre-Ampere)");
    f("remapped_rows_pending", remapped_rows_pending, "a row remapping waits for a GPU reset (Ampere and newer)");
    f("remapped_rows_failed", remapped_rows_failed, "a row remapping failed: the GPU has run out of spare rows");
    f("inforom_valid", inforom_valid, "nvmlDeviceValidateInforom: false when the InfoROM is corrupt");
    // The names child/nvml_probe.cpp gives NVML's reason bits.
    f("throttle_reasons", throttle_reasons, "active clock throttle reasons other than idle and application clocks",
      std::vector<std::string>{"sw-power-cap", "hw-slowdown", "sw-thermal-slowdown", "hw-thermal-slowdown", "hw-power-brake", "sync-boost"});
    f("processes", processes, "compute processes using the GPU");
    f("process_list", process_list, "those processes (at most 16): pid, name and memory, from nvmlDeviceGetComputeRunningProcesses");
    f("fabric_state", fabric_state, "NVLink fabric registration (NVSwitch systems)");
    f("fabric_health", fabric_health, "NVIDIA's summary of the fabric's health (nvmlDeviceGetGpuFabricInfoV, R550 and newer)");
    f("fabric_issues", fabric_issues, "what the fabric's health mask says is wrong; empty where nothing is");
  }
};

// Common to both children: how the child ended and how far it got.
struct ChildOutcomeFacts {
  // ok (it finished), unavailable (a static build), crashed, timed-out,
  // exited (in the middle), garbled (output that is not the protocol),
  // cannot-start, not-run (under --root), not-recorded (a replay without its answer)
  ChildStatus status = ChildStatus::ok;
  std::optional<std::string> reason, stopped_in, library_error, signal_name;
  std::optional<std::int64_t> signal;
  bool library_loaded = false;
  std::vector<std::string> mapped;

  template <class F>
  void fields(F& f) const {
    f("status", status, "how it ended: unavailable (static build), exited (before finishing), garbled (not the protocol), not-run (--root), not-recorded (a replay without it)");
    f("reason", reason, "why it is unavailable, or what was garbled");
    f("stopped_in", stopped_in, "crashed, timed out or exited: the call it was in (dlopen, cuInit, nvmlInit_v2, smoke N)");
    f("signal", signal, "the signal that ended it");
    f("signal_name", signal_name, "its name, SIGSEGV");
    f("library_loaded", library_loaded, "dlopen of the library by its plain name succeeded");
    f("library_error", library_error, "dlopen's error when it did not");
    f("mapped", mapped, "driver library files the child really mapped (/proc/self/maps)");
  }
};

struct CudaProbeFacts : ChildOutcomeFacts {
  std::optional<std::int64_t> driver_api_version, init_result, device_count;
  std::optional<std::string> cuda_version, init_error;
  std::vector<CudaDeviceFacts> devices;
  std::optional<std::vector<SmokeFacts>> smoke;
  std::optional<bool> smoke_passed;

  template <class F>
  void fields(F& f) const {
    ChildOutcomeFacts::fields(f);
    f("driver_api_version", driver_api_version, "cuDriverGetVersion: 12040 for CUDA 12.4");
    f("cuda_version", cuda_version, "the same as major.minor: the newest CUDA the driver supports");
    f("init_result", init_result, "cuInit(0)'s CUresult: 0 success, 100 no device, 999 unknown, ...");
    f("init_error", init_error, "its name, CUDA_ERROR_NO_DEVICE");
    f("device_count", device_count, "cuDeviceGetCount");
    f("devices", devices, "the devices CUDA sees");
    f("smoke", smoke, "--smoke: one entry per device");
    f("smoke_passed", smoke_passed, "--smoke: the kernel ran and checked out on every device CUDA sees (false: on some it did not)");
  }
};

struct NvmlProbeFacts : ChildOutcomeFacts {
  std::optional<std::int64_t> init_result, device_count;
  std::optional<std::string> init_error, driver_version, cuda_version;
  std::vector<NvmlDeviceFacts> devices;

  template <class F>
  void fields(F& f) const {
    ChildOutcomeFacts::fields(f);
    f("init_result", init_result, "nvmlInit_v2's result: 0 success, 9 driver not loaded, 18 library/driver mismatch, ...");
    f("init_error", init_error, "nvmlErrorString of it");
    f("driver_version", driver_version, "nvmlSystemGetDriverVersion");
    f("cuda_version", cuda_version, "nvmlSystemGetCudaDriverVersion as major.minor");
    f("device_count", device_count, "nvmlDeviceGetCount");
    f("devices", devices, "per GPU identity, state and health");
  }
};

}  // namespace gd
