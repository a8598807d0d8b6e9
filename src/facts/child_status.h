#pragma once
// How a child asked for evidence (nvidia-smi, the driver probe) ended: one
// closed set for both, each value named once.

#include "util/enum_names.h"

namespace gd {

enum class ChildStatus {
  ok,                // it answered
  no_driver,         // nvidia-smi: "couldn't communicate with the NVIDIA driver"
  version_mismatch,  // nvidia-smi: "Driver/library version mismatch"
  failed,            // nvidia-smi: any other non-zero exit
  unavailable,       // the driver probe in a static build
  exited,            // the driver probe exited before finishing
  garbled,           // the driver probe's output is not the protocol
  timed_out,
  crashed,
  cannot_start,
  not_run,       // under --root
  not_recorded,  // a replay without its answer
};
template <>
struct EnumTable<ChildStatus> {
  static constexpr std::array names{"ok",     "no-driver", "version-mismatch", "failed",       "unavailable", "exited",
                                    "garbled", "timed-out", "crashed",          "cannot-start", "not-run",     "not-recorded"};
};

}  // namespace gd
