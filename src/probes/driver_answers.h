#pragma once
// What the driver answers a program (nvidia-smi's query and banner, the
// driver probe's cuInit and NVML), asked ahead: the driver-libs layer plans
// the children once it knows they will be asked, and they run beside the
// reading of every layer above, so that a live check costs its slowest child,
// not their sum. Each answer is taken when first needed (the application
// layer's CUDA devices on a machine whose PCI bus hides its GPUs, else when
// the driver-libs layer is finished), always in the order they were asked
// before: smi, then the cuda probe, then NVML.
//
// The children start only after the device-nodes layer was read: cuInit and
// nvidia-smi may create missing nodes or load nvidia_uvm, and what the
// layers below read must be what a program found, not what the probe made.

#include "facts/driver_libs_facts.h"
#include "host/host.h"
#include "probes/device_open.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace gd {

class DriverAnswers {
 public:
  struct Plan {
    std::optional<std::string> nvidia_smi;  // its path, where nvidia-smi is to be asked
    bool cuda = false, smoke = false, nvml = false;
    // `gpudoctor gpus`: NVML alone is asked ahead, for what the table shows,
    // and the others only where it listed no GPU (each is then asked when
    // taken, NVML first); where NVML is not asked, nvidia-smi's calls ahead.
    bool nvml_first = false;
  };

  // Asks every child of the plan ahead (a host that answers at once ignores it).
  void begin(Host& host, Plan plan);

  // The device-nodes layer's opens (and the version ioctl), asked ahead once
  // its walk is done: they run beside everything read after it. A child is
  // started one at a time, so they are asked after the driver's own children
  // where those are yet to be asked (begin): the longest waits start first.
  void open_nodes_ahead(Host& host, std::vector<std::string> paths);
  const std::vector<DeviceOpenResult>& device_opens() const;

  // Each answer, asked (or taken) the first time; empty where the plan has none.
  const std::optional<NvidiaSmiFacts>& nvidia_smi() const;
  const std::optional<CudaProbeFacts>& cuda_probe() const;
  const std::optional<NvmlProbeFacts>& nvml_probe() const;

 private:
  void ask_children_ahead(Host& host);
  // A driver that kept nvidia-smi waiting keeps the others waiting too: theirs is then its deadline.
  std::chrono::milliseconds deadline_after_smi(std::chrono::milliseconds own) const;

  Host* m_host = nullptr;
  Plan m_plan;
  Host* m_open_host = nullptr;
  std::vector<std::string> m_open_paths;
  mutable bool m_opens_waiting = false;  // asked before begin: started by it, after the driver's children
  mutable std::optional<std::vector<DeviceOpenResult>> m_opens;
  mutable bool m_smi_taken = false, m_cuda_taken = false, m_nvml_taken = false;
  mutable std::optional<NvidiaSmiFacts> m_smi;
  mutable std::optional<CudaProbeFacts> m_cuda;
  mutable std::optional<NvmlProbeFacts> m_nvml;
};

}  // namespace gd
