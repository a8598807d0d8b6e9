#pragma once
// A question for a child process and its answer. Anything that may hang or
// crash (opening a wedged GPU's node, nvidia-smi, later loading libcuda) runs
// in a child with a deadline, and how the child ended is itself evidence.
// A request is plain data with a stable key, so a snapshot records each
// answer and a replay gives it back: a new kind of child evidence is one
// more ChildKind and its handler, recorded and replayed for free.

#include "util/enum_names.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace gd {

enum class ChildKind {
  command,      // args: argv of a program, run without a shell
  device_open,  // args: /dev paths; the child opens each, and asks /dev/nvidiactl its version
  driver_probe, // args: cuda [smoke] | nvml; the child loads the driver's library and asks it
  docker_api,   // args: SOCKET; the child asks dockerd GET /info there
  cri_status,   // args: SOCKET; the child asks containerd's CRI plugin its status there
  crio_config,  // args: SOCKET; the child asks CRI-O GET /config there
};
template <>
struct EnumTable<ChildKind> {
  static constexpr std::array names{"command", "device-open", "driver-probe", "docker-api", "cri-status", "crio-config"};
};

// Which part of an answer longer than k_max_child_output is kept: the start
// (a program's report), or the end (a log, whose newest lines matter).
enum class OutputKeep { head, tail };

struct ChildRequest {
  ChildKind kind = ChildKind::command;
  std::vector<std::string> args;
  std::chrono::milliseconds deadline{5000};
  OutputKeep keep = OutputKeep::head;

  // "command nvidia-smi -L", "device-open /dev/nvidiactl /dev/nvidia0"
  std::string key() const;
};

struct ChildAnswer {
  std::optional<int> exit;    // its exit status, when it exited by itself
  std::optional<int> signal;  // the signal that ended it (SIGSEGV: it crashed)
  bool timed_out = false;     // killed, with its process group, at the deadline
  std::string output;         // stdout, capped at k_max_child_output
  std::string error_output;   // stderr, capped likewise
  // It said more than the cap: the rest was read (so it never blocked on a
  // full pipe) and dropped, and the answer is cut where the request's keep says.
  bool truncated = false;
  // It could not be asked at all: "ENOENT" (no such program), "ENOSYS" (not
  // run under --root: the image's programs are not this machine's),
  // "not-recorded" (a replayed snapshot holds no answer).
  std::optional<std::string> error;
};

inline constexpr std::size_t k_max_child_output = 1 << 20;

// One request answered again and again by one child process: `gpus --watch`
// keeps one NVML session instead of starting a child, loading the library
// and initialising it for every reading. The first next() takes the answer
// the child gave when it started; each later one asks it again. An answer
// of a child still running has no exit; one with an exit, a signal, a
// timeout or an error is the last. Its stderr is what was read by the time
// its stdout was complete: the two pipes keep no order between them.
class ChildSession {
 public:
  virtual ~ChildSession() = default;
  virtual ChildAnswer next(std::chrono::milliseconds deadline) = 0;
};

inline const char* child_kind_name(ChildKind kind) { return enum_name(kind); }
inline std::optional<ChildKind> parse_child_kind(std::string_view name) { return enum_from_name<ChildKind>(name); }

}  // namespace gd
