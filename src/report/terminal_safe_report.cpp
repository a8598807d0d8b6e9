// The one escaping step in front of the renderers that people read (text,
// markdown, the closing line): every string a report holds, whatever read it
// (a path, an evidence value, a message filled from a fact), made valid UTF-8
// with no byte a terminal would obey (ESC, BEL, CR, C1 controls) left raw.
#include "report/renderers.h"

#include "util/text.h"

#include <algorithm>

namespace gd {
namespace {

// Printable ASCII, tabs and newlines pass both steps unchanged; most of a
// report is that, and is checked without being copied twice.
bool already_safe(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t'; });
}

void escape(std::string& text) {
  if (!already_safe(text)) text = terminal_safe(valid_utf8(text));
}

void escape(boost::json::value& value) {
  if (value.is_string()) {
    if (already_safe(value.get_string())) return;
    const std::string safe = terminal_safe(valid_utf8(value.get_string()));
    if (safe != std::string_view(value.get_string())) value = safe;
  } else if (value.is_array()) {
    for (auto& item : value.get_array()) escape(item);
  } else if (value.is_object()) {
    for (auto& entry : value.get_object()) escape(entry.value());
  }
}

void escape(Finding& finding) {
  for (auto* text : {&finding.message, &finding.fix, &finding.reference, &finding.about}) escape(*text);
  for (auto& said : finding.disputed_by) escape(said);
  for (auto& evidence : finding.evidence) {
    escape(evidence.fact);
    escape(evidence.value);
    escape(evidence.source);
  }
}

}  // namespace

Report terminal_safe_report(Report report) {
  for (auto& layer : report.layers) {
    escape(layer.facts.summary);
    for (auto& entry : layer.facts.facts) escape(entry.value());
    for (auto& [fact, source] : layer.facts.sources) escape(source);
    for (auto& finding : layer.findings) escape(finding);
  }
  for (auto& entry : report.system) escape(entry.value());
  escape(report.machine.platform);
  escape(report.machine.kernel_release);
  for (auto& seen : report.outcomes) escape(seen.says);
  return report;
}

}  // namespace gd
