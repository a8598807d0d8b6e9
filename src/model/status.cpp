#include "model/status.h"

namespace gd {

const char* status_name(Status status) {
  switch (status) {
    case Status::ok: return "ok";
    case Status::warn: return "warn";
    case Status::fail: return "fail";
    case Status::skip: return "skip";
    case Status::unknown: return "unknown";
  }
  return "unknown";
}

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::info: return "info";
    case Severity::warn: return "warn";
    case Severity::fail: return "fail";
  }
  return "info";
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "info") return Severity::info;
  if (text == "warn") return Severity::warn;
  if (text == "fail") return Severity::fail;
  return std::nullopt;
}

Status status_for(Severity severity) {
  switch (severity) {
    case Severity::fail: return Status::fail;
    case Severity::warn: return Status::warn;
    case Severity::info: return Status::ok;
  }
  return Status::ok;
}

}  // namespace gd
