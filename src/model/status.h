#pragma once

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

}  // namespace gd
