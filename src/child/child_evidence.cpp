#include "child/child_evidence.h"

namespace gd {

const char* child_kind_name(ChildKind kind) {
  switch (kind) {
    case ChildKind::command: return "command";
    case ChildKind::device_open: return "device-open";
    case ChildKind::driver_probe: return "driver-probe";
  }
  return "command";
}

std::optional<ChildKind> parse_child_kind(std::string_view name) {
  for (auto kind : {ChildKind::command, ChildKind::device_open, ChildKind::driver_probe})
    if (name == child_kind_name(kind)) return kind;
  return std::nullopt;
}

std::string ChildRequest::key() const {
  std::string key = child_kind_name(kind);
  for (const auto& arg : args) key += " " + arg;
  return key;
}

}  // namespace gd
