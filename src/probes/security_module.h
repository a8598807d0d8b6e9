#pragma once
// The security module that confines this process (SELinux, AppArmor), from
// its label in /proc/self/attr: a device node that the mode lets this user
// open but that open(2) refuses with EACCES was refused by such a module,
// where a device cgroup would have answered EPERM.

#include "facts/system_facts.h"
#include "host/host.h"

#include <optional>
#include <string_view>

namespace gd {

// The label's module, or nothing for an empty label, AppArmor's
// "unconfined", or a label neither module writes.
std::optional<SecurityFacts> parse_security_label(std::string_view label);

std::optional<SecurityFacts> read_security_module(Host& host);

}  // namespace gd
