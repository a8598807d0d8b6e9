#include "report/renderers.h"

namespace gd {

// The closing line every format ends with: what a user acts on and pastes
// into a ticket.
std::string verdict_line(const Report& report) {
  if (report.verdict == Status::ok) return "OK: every layer that could be checked is healthy.";
  const Finding* headline = headline_finding(report);
  if (!headline) return std::string(status_name(report.verdict));
  return std::string(report.verdict == Status::fail ? "FAIL" : "WARN") + " at " + headline->layer + ": " + headline->message;
}

}  // namespace gd
