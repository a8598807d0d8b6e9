#include "probes/driver_answers.h"

#include "gpudoctor_config.h"

#include "probes/driver_probe.h"
#include "probes/nvidia_smi.h"

namespace gd {

void DriverAnswers::begin(Host& host, Plan plan) {
  m_host = &host;
  m_plan = std::move(plan);
  ask_children_ahead(host);
  if (m_opens_waiting) open_device_nodes_ahead(*m_open_host, m_open_paths);
  m_opens_waiting = false;
}

void DriverAnswers::ask_children_ahead(Host& host) {
  if (m_plan.nvml_first) {
    // The GPU table: NVML where it can be asked, for what the table shows;
    // else nvidia-smi's two calls at once (--no-probe, or a static build,
    // whose children cannot load the driver and say so at once).
    const bool driver_loadable = !(GPUDOCTOR_STATIC && host.mode() == HostMode::live);
    if (m_plan.nvml && driver_loadable) host.ask_ahead(nvml_probe_request(k_nvml_probe_deadline, true));
    else if (m_plan.nvidia_smi)
      for (const auto& request : nvidia_smi_requests(*m_plan.nvidia_smi)) host.ask_ahead(request);
    return;
  }
  // The slowest first (cuInit takes seconds where nvmlInit takes milliseconds):
  // children are started one at a time, and the check waits for the last to end.
  if (m_plan.cuda) host.ask_ahead(cuda_probe_request(m_plan.smoke, k_cuda_probe_deadline));
  if (m_plan.nvml) host.ask_ahead(nvml_probe_request(k_nvml_probe_deadline));
  if (m_plan.nvidia_smi)
    for (const auto& request : nvidia_smi_requests(*m_plan.nvidia_smi)) host.ask_ahead(request);
}

void DriverAnswers::open_nodes_ahead(Host& host, std::vector<std::string> paths) {
  m_open_host = &host;
  m_open_paths = std::move(paths);
  if (m_host) open_device_nodes_ahead(host, m_open_paths);
  else m_opens_waiting = true;
}

const std::vector<DeviceOpenResult>& DriverAnswers::device_opens() const {
  if (!m_opens) m_opens = m_open_host ? open_device_nodes(*m_open_host, m_open_paths) : std::vector<DeviceOpenResult>{};
  m_opens_waiting = false;  // taken: never asked again
  return *m_opens;
}

const std::optional<NvidiaSmiFacts>& DriverAnswers::nvidia_smi() const {
  if (!m_smi_taken && m_host && m_plan.nvidia_smi) m_smi = run_nvidia_smi(*m_host, *m_plan.nvidia_smi, k_nvidia_smi_deadline, !m_plan.nvml);
  m_smi_taken = true;
  return m_smi;
}

std::chrono::milliseconds DriverAnswers::deadline_after_smi(std::chrono::milliseconds own) const {
  if (m_plan.nvml_first && !m_smi_taken) return own;  // NVML is asked before nvidia-smi there
  const auto& smi = nvidia_smi();
  return smi && smi->status == ChildStatus::timed_out ? k_nvidia_smi_deadline : own;
}

const std::optional<CudaProbeFacts>& DriverAnswers::cuda_probe() const {
  if (!m_cuda_taken && m_host && m_plan.cuda) {
    m_cuda = run_cuda_probe(*m_host, m_plan.smoke, deadline_after_smi(k_cuda_probe_deadline));
    // A replay gives the diagnosis of the run that took the snapshot,
    // whether or not that run had --smoke.
    if (m_cuda->status == ChildStatus::not_recorded && m_host->mode() == HostMode::replay)
      m_cuda = run_cuda_probe(*m_host, !m_plan.smoke, deadline_after_smi(k_cuda_probe_deadline));
  }
  m_cuda_taken = true;
  return m_cuda;
}

const std::optional<NvmlProbeFacts>& DriverAnswers::nvml_probe() const {
  if (!m_nvml_taken && m_host && m_plan.nvml) {
    if (!m_plan.nvml_first) cuda_probe();  // in the order they were always asked
    m_nvml = run_nvml_probe(*m_host, deadline_after_smi(k_nvml_probe_deadline), m_plan.nvml_first);
    // A snapshot records the check's whole NVML answer, which holds the table's.
    if (m_nvml->status == ChildStatus::not_recorded && m_host->mode() == HostMode::replay && m_plan.nvml_first)
      m_nvml = run_nvml_probe(*m_host, deadline_after_smi(k_nvml_probe_deadline));
  }
  m_nvml_taken = true;
  return m_nvml;
}

}  // namespace gd
