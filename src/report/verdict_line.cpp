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

// --format line, a fleet's one line (NPD's message): the same, with the
// machine's action (model/action.h) before the message, where a cut at the
// plugin's output limit cannot take it.
std::string action_line(const Report& report) {
  const Finding* headline = report.verdict == Status::ok ? nullptr : headline_finding(report);
  if (!headline) return verdict_line(report);
  return std::string(report.verdict == Status::fail ? "FAIL" : "WARN") + " at " + headline->layer + " [" +
         enum_name(report_action(report)) + "]: " + headline->message;
}

}  // namespace gd
