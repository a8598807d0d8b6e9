#pragma once

#include "util/enum_names.h"

#include <optional>
#include <string_view>

namespace gd {

// The order is the order of badness used to combine statuses.
enum class Status { skip, unknown, ok, warn, fail };
enum class Severity { info, warn, fail };

const char* status_name(Status status);
const char* severity_name(Severity severity);
std::optional<Severity> parse_severity(std::string_view text);
Status status_for(Severity severity);  // info leaves a layer ok

// What the run's own live evidence showed of an outcome a rule predicts
// (rules/tables/outcomes.json): it worked, it failed, or nothing showed it.
enum class Observed { works, fails, unknown };
template <>
struct EnumTable<Observed> {
  static constexpr std::array names{"works", "fails", "unknown"};
};

}  // namespace gd
