#include "probes/process_scan.h"

#include "util/path.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace gd {

namespace {

constexpr std::size_t k_max_processes = 8192;
constexpr std::size_t k_max_listed = 16;
constexpr std::size_t k_max_candidates = 256;  // D-state processes read again
constexpr std::size_t k_max_fds = 4096;
constexpr std::size_t k_max_nodes = 8;

std::string proc_path(std::string_view pid, std::string_view file) { return concat({"/proc/", pid, "/", file}); }

// A stat line is a few hundred bytes: the command is at most 64 (TASK_COMM_LEN, escaped).
constexpr std::size_t k_stat_bytes = 1024;

std::optional<ProcStat> read_stat(Host& host, std::string_view pid) {
  auto text = host.read_file(proc_path(pid, "stat"), k_stat_bytes);
  return text ? parse_proc_stat(*text) : std::nullopt;
}

// The state letter alone, for the scan of every process: most are not in D.
std::optional<char> proc_state(std::string_view text) {
  const auto close = text.rfind(')');
  if (close == std::string_view::npos || close + 2 >= text.size()) return std::nullopt;
  return text[close + 2];
}

// The command as the kernel wrote it, unescaped: "4242 (nv-fabricmanage) S ..." -> "nv-fabricmanage".
// It may hold spaces and parentheses: it ends at the last ')'.
std::optional<std::string_view> proc_command(std::string_view text) {
  const auto open = text.find('('), close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  return text.substr(open + 1, close - open - 1);
}

// The NVIDIA nodes among the process's open files (/proc/PID/fd's links).
std::vector<std::string> open_driver_nodes(Host& host, std::string_view pid) {
  std::vector<std::string> nodes;
  const std::string fd_dir = proc_path(pid, "fd");
  auto fds = host.list_dir(fd_dir);
  if (!fds) return nodes;
  std::size_t seen = 0;
  for (const auto& fd : *fds) {
    if (++seen > k_max_fds || nodes.size() >= k_max_nodes) break;
    auto target = host.read_link(join_path(fd_dir, fd));
    if (!target || !target->starts_with("/dev/nvidia")) continue;
    std::string node = printable(*target, 60);
    if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(std::move(node));
  }
  return nodes;
}

std::optional<std::string> read_wchan(Host& host, std::string_view pid) {
  auto text = host.read_file(proc_path(pid, "wchan"), 256);
  if (!text) return std::nullopt;
  const auto name = trim(*text);
  if (name.empty() || name == "0") return std::nullopt;  // not sleeping, or hidden from this user
  return printable(name, 60);
}

const HungTask* hung_report(const KernelLogFacts* log, std::int64_t pid, const std::string& command) {
  if (!log) return nullptr;
  for (const auto& task : log->hung_tasks)
    if (task.pid == pid && task.in_driver && task.command == command) return &task;
  return nullptr;
}

// A D-state process in the driver, where it is still in D state when read again.
std::optional<StuckProcess> stuck_in_driver(Host& host, const ProcessStates::Candidate& candidate, const KernelLogFacts* log,
                                            ProcessScanFacts& facts) {
  const std::string pid = std::to_string(candidate.pid);
  StuckProcess process{.pid = candidate.pid, .command = candidate.command, .wchan = read_wchan(host, pid)};
  process.nodes = open_driver_nodes(host, pid);
  const auto again = read_stat(host, pid);
  if (!again || again->state != 'D') return std::nullopt;  // a passing wait, or gpudoctor's own child, gone now
  ++facts.uninterruptible;
  if (!(process.wchan && is_driver_function(*process.wchan)) && process.nodes.empty()) return std::nullopt;
  if (const auto* report = hung_report(log, candidate.pid, candidate.command)) process.hung_seconds = report->seconds;
  return process;
}

void find_gpu_zombies(Host& host, const NvmlProbeFacts& nvml, ProcessScanFacts& facts) {
  for (const auto& device : nvml.devices) {
    if (!device.process_list) continue;
    for (const auto& listed : *device.process_list) {
      if (facts.gpu_zombies.size() >= k_max_listed) return;
      const std::string pid = std::to_string(listed.pid);
      const auto stat = read_stat(host, pid);
      if (!stat || stat->state != 'Z') continue;
      ZombieGpuProcess zombie{.pid = listed.pid, .gpu = device.index, .name = listed.name, .used_mib = listed.used_mib};
      if (stat->parent > 0) {
        zombie.parent = stat->parent;
        if (const auto parent = read_stat(host, std::to_string(stat->parent))) zombie.parent_command = parent->command;
      }
      facts.gpu_zombies.push_back(std::move(zombie));
    }
  }
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  const auto command = proc_command(text);
  const auto state = proc_state(text);
  if (!command || !state || !std::isalpha(static_cast<unsigned char>(*state))) return std::nullopt;
  ProcStat stat{.command = printable(*command, 40), .state = *state};
  const auto rest = text.substr(text.rfind(')') + 2);  // "D 1 ..."
  if (rest.size() > 2) {
    const auto fields = rest.substr(2);
    if (const auto parent = parse_int(fields.substr(0, fields.find(' ')))) stat.parent = *parent;
  }
  return stat;
}

// nvidia.ko's and nvidia-uvm.ko's own prefixes (nv_, _nv, os_ for its OS
// layer, rm_, uvm_, nvidia_); a sleep in the kernel's own primitives (down,
// schedule) says nothing, and the process's open nodes decide instead.
bool is_driver_function(std::string_view wchan) {
  for (std::string_view prefix : {"nv_", "_nv", "nvidia_", "uvm_", "os_acquire", "os_delay", "rm_", "nvkms"})
    if (wchan.starts_with(prefix)) return true;
  return false;
}

ProcessStates read_process_states(Host& host, std::span<const std::string_view> named) {
  ProcessStates states;
  bool pid_one = false;
  auto entries = host.list_dir("/proc");
  if (!entries) {
    states.scan = errno_name(entries.error());
    return states;
  }
  states.scan = "ok";
  for (const auto& name : *entries) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    const auto pid = parse_int(name);
    if (!pid) continue;
    if (static_cast<std::size_t>(states.processes) >= k_max_processes) {
      states.cut = "more than " + std::to_string(k_max_processes) + " processes: the rest were not read";
      break;
    }
    const auto text = host.read_file(proc_path(name, "stat"), k_stat_bytes);
    const auto state = text ? proc_state(*text) : std::nullopt;
    if (!state) continue;  // gone since the listing
    ++states.processes;
    pid_one = pid_one || *pid == 1;
    if (!named.empty()) {
      const auto command = proc_command(*text);
      if (command && std::find(named.begin(), named.end(), *command) != named.end() && !states.find_named(*command))
        states.named.push_back({*pid, std::string(*command)});
    }
    if (*state != 'D' || states.candidates.size() >= k_max_candidates) continue;
    if (const auto stat = parse_proc_stat(*text)) states.candidates.push_back({*pid, stat->command});
  }
  states.complete = pid_one && !states.cut && host.mode() != HostMode::root;
  return states;
}

const ProcessStates::Candidate* ProcessStates::find_named(std::string_view command) const {
  const auto found = std::find_if(named.begin(), named.end(), [&](const Candidate& process) { return process.command == command; });
  return found == named.end() ? nullptr : &*found;
}

ProcessScanFacts finish_process_scan(Host& host, const ProcessStates& states, const KernelLogFacts* kernel_log,
                                     const NvmlProbeFacts* nvml, bool on_host) {
  ProcessScanFacts facts{.scan = states.scan, .processes = states.processes, .cut = states.cut};
  for (const auto& candidate : states.candidates)
    if (auto stuck = stuck_in_driver(host, candidate, kernel_log, facts); stuck && facts.stuck_in_driver.size() < k_max_listed)
      facts.stuck_in_driver.push_back(std::move(*stuck));
  if (nvml && on_host) find_gpu_zombies(host, *nvml, facts);
  return facts;
}

ProcessScanFacts scan_processes(Host& host, const KernelLogFacts* kernel_log, const NvmlProbeFacts* nvml, bool on_host) {
  return finish_process_scan(host, read_process_states(host), kernel_log, nvml, on_host);
}

}  // namespace gd
