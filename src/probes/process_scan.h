#pragma once
// Processes stuck in the NVIDIA driver and zombies that keep a GPU, read from
// /proc: what gpud's D-state check and NVML's process list ask of a node.
// A process in uninterruptible sleep (D) in the driver cannot be killed, and
// a GPU it holds cannot be reset; one moment's D state may be passing, so a
// process counts only where it is still there when read again, and the
// kernel's hung-task report (kernel_log.hung_tasks) says how long.

#include "facts/driver_libs_facts.h"
#include "facts/kernel_module_facts.h"
#include "host/host.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// /proc/PID/stat's fields gpudoctor needs: "4242 (python) D 1 ...". The
// command may hold spaces and parentheses: it ends at the last ')'.
struct ProcStat {
  std::string command;
  char state = '?';
  std::int64_t parent = 0;
};
std::optional<ProcStat> parse_proc_stat(std::string_view text);

// The NVIDIA modules' functions a task sleeps in, by /proc/PID/wchan.
bool is_driver_function(std::string_view wchan);

// The first pass, which reads every process's state: it runs while
// gpudoctor's own children are still in the driver, so its D-state
// processes are only candidates.
struct ProcessStates {
  struct Candidate {
    std::int64_t pid = 0;
    std::string command;
  };
  std::string scan;
  std::int64_t processes = 0;
  std::vector<Candidate> candidates;
  std::optional<std::string> cut;
  // Whether every process was read: pid 1 is the witness (/proc mounted with
  // hidepid shows a user only its own), nothing was cut, and this is not a
  // --root tree (whose processes are not this machine's).
  bool complete = false;
  // The first process of each name asked for (the kernel keeps 15 bytes of it).
  std::vector<Candidate> named{};

  // The process named `command`, if it was among them (say so only where complete).
  const Candidate* find_named(std::string_view command) const;
};
// named: the commands to find (one walk of /proc serves every question).
ProcessStates read_process_states(Host& host, std::span<const std::string_view> named = {});

// The second, once the children ended: each candidate read again, its wchan
// and open files. nvml: NVML's devices where it answered; on_host: NVML's
// process ids are this /proc's (not so in a container, whose PID namespace
// is its own).
ProcessScanFacts finish_process_scan(Host& host, const ProcessStates& states, const KernelLogFacts* kernel_log,
                                     const NvmlProbeFacts* nvml, bool on_host);

// Both passes at once (tests, fuzzing).
ProcessScanFacts scan_processes(Host& host, const KernelLogFacts* kernel_log, const NvmlProbeFacts* nvml, bool on_host);

}  // namespace gd
