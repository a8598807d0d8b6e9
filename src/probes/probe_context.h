#pragma once
// What every probe gets: the host seam, the rule tables (reference data such
// as PCI ids; never rules), and the typed facts of the system and of the
// layers probed so far, so that a layer relates its evidence to those below.
// A layer whose probe failed leaves its facts default: empty, never absent.

#include "facts/container_facts.h"
#include "facts/device_nodes_facts.h"
#include "facts/driver_libs_facts.h"
#include "facts/hardware_facts.h"
#include "facts/kernel_module_facts.h"
#include "facts/probe_notes.h"
#include "facts/system_facts.h"
#include "host/host.h"
#include "probes/conda_meta.h"
#include "probes/driver_answers.h"
#include "probes/mountinfo.h"
#include "probes/process_scan.h"
#include "loader/loader_config.h"
#include "tables/reference_tables.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

// What the user asked that changes what the driver is asked.
struct ProbeOptions {
  bool driver_probe = true;  // --no-probe turns it off
  bool smoke = false;        // --smoke
  std::vector<std::string> targets{};  // --target: files whose GPU code the application layer reads
  bool image = false;                          // --image: an image, not a running system
  std::optional<std::string> assumed_gpu{};      // --gpu DEVICE-ID|CC: the host's GPU, in image mode
  std::optional<std::string> assumed_driver{};   // --host-driver VERSION: the host's driver, in image mode
  std::optional<std::int64_t> expected_gpus{};   // --expect gpus=N: the NVIDIA GPUs this machine should have
  std::optional<std::int64_t> expected_ib_ports{};  // --expect ib-ports=N: its active InfiniBand/RoCE ports
  // `gpudoctor gpus`: only what lists the GPUs (NVML, else nvidia-smi, else
  // CUDA, else the files); no kernel log, no node opened, no layer above driver-libs.
  bool gpu_table = false;
};

struct ProbeContext {
  Host& host;
  const ReferenceTables& tables;
  SystemFacts system{};
  HardwareFacts hardware{};
  KernelModuleFacts kernel_module{};
  ContainerFacts container{};
  DeviceNodesFacts device_nodes{};
  DriverLibsFacts driver_libs{};
  ProbeOptions options{};
  // The driver's answers, asked ahead by the driver-libs layer and taken when first needed.
  DriverAnswers driver_answers{};
  // The loader of a typical program here (ld.so.conf, the cache, LD_LIBRARY_PATH),
  // read once per check by host_loader_config() and shared by every probe that simulates loading.
  std::optional<LoaderConfig> loader_config{};
  // Every process's state, read once while the driver's children run (not in
  // image mode, nor for `gpudoctor gpus`): the scan for processes stuck in the
  // driver and the search for Fabric Manager's daemon share it.
  std::optional<ProcessStates> process_states{};
  // conda-meta records, read once per check for every probe that asks.
  CondaRecords conda_records{};
  // /proc/self/mountinfo, read once per check by self_mounts(); nothing inside where it could not be read.
  std::optional<std::optional<std::vector<MountEntry>>> mounts{};
};

inline const LoaderConfig& host_loader_config(ProbeContext& context) {
  if (!context.loader_config) context.loader_config = detect_host_loader_config(context.host);
  return *context.loader_config;
}

// This process's mounts (the container's, in a container): read the first
// time a probe asks, then shared; nullptr where /proc/self/mountinfo cannot be read.
inline const std::vector<MountEntry>* self_mounts(ProbeContext& context) {
  if (!context.mounts) {
    auto text = context.host.read_file(k_self_mountinfo, 1 << 20);
    context.mounts = text ? std::optional(parse_mountinfo(*text)) : std::nullopt;
  }
  return *context.mounts ? &**context.mounts : nullptr;
}

}  // namespace gd
