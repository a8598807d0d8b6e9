#pragma once

#include "util/enum_names.h"

#include <optional>
#include <string_view>

namespace gd {

// The order is the order of badness used to combine statuses.
enum class Status { skip, unknown, ok, warn, fail };
template <>
struct EnumTable<Status> {
  static constexpr std::array names{"skip", "unknown", "ok", "warn", "fail"};
};
enum class Severity { info, warn, fail };
template <>
struct EnumTable<Severity> {
  static constexpr std::array names{"info", "warn", "fail"};
};

inline const char* status_name(Status status) { return enum_name(status); }
inline const char* severity_name(Severity severity) { return enum_name(severity); }
inline std::optional<Severity> parse_severity(std::string_view text) { return enum_from_name<Severity>(text); }
Status status_for(Severity severity);  // info leaves a layer ok

// What the run's own live evidence showed of an outcome a rule predicts
// (rules/tables/outcomes.json): it worked, it failed, or nothing showed it.
enum class Observed { works, fails, unknown };
template <>
struct EnumTable<Observed> {
  static constexpr std::array names{"works", "fails", "unknown"};
};

}  // namespace gd
