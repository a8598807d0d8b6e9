#pragma once
// What a fleet should do about a finding, as a closed set beside its prose
// fix: a scheduler, a drain controller or a ticket rule reads this, never the
// fix text. They are declared from least to most disruptive to the node; a
// report's own action is the most disruptive any root cause of its verdict asks for.

#include "util/enum_names.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

namespace gd {

enum class Action {
  none,               // nothing to do (an info finding, a healthy state)
  restart_workload,   // the work was hurt, the node is fine: run it again
  check_application,  // the application's own fault (Xid 13, 31, 43...): its owner looks
  fix_configuration,  // install, upgrade or reconfigure software on the node or in the image
  reset_gpu,          // reset the GPU (nvidia-smi -r) where nothing uses it
  drain_and_reset,    // move work off the node, then reset the GPU
  reboot_node,        // reboot the machine
  inspect_hardware,   // reseat, check power and cooling, or replace (RMA)
};
template <>
struct EnumTable<Action> {
  static constexpr std::array names{"none",      "restart-workload", "check-application", "fix-configuration",
                                    "reset-gpu", "drain-and-reset",  "reboot-node",       "inspect-hardware"};
};

inline std::optional<Action> parse_action(std::string_view text) { return enum_from_name<Action>(text); }

// The driver's GPU recovery action by its number, as NVML's field 230
// (nvmlDeviceGpuRecoveryAction_t) and Xid 154's "to 0xN" give it: NONE,
// GPU_RESET, NODE_REBOOT, DRAIN_P2P (quiesce peer-to-peer traffic, then reset),
// DRAIN_AND_RESET. A newer value (RECOVER_IMEX_DOMAIN, ...) is no action of ours.
inline std::optional<Action> driver_recovery_action(std::int64_t value) {
  constexpr Action k_by_value[] = {Action::none, Action::reset_gpu, Action::reboot_node, Action::drain_and_reset,
                                   Action::drain_and_reset};
  if (value < 0 || value >= static_cast<std::int64_t>(std::size(k_by_value))) return std::nullopt;
  return k_by_value[value];
}

}  // namespace gd
