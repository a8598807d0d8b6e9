#pragma once
// What a fleet should do about a finding, as a closed set beside its prose
// fix: a scheduler, a drain controller or a ticket rule reads this, never the
// fix text. They are declared from least to most disruptive to the node; a
// report's own action is the most disruptive any of its root causes asks for.

#include "util/enum_names.h"

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

}  // namespace gd
