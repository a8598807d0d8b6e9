#include "report/renderers.h"

#include "model/fact_text.h"
#include "util/json_pretty.h"
#include "util/text.h"

namespace gd {

namespace {

const char* badge(Status status) {
  switch (status) {
    case Status::ok: return "✅";
    case Status::warn: return "⚠️";
    case Status::fail: return "❌";
    case Status::skip: return "➖";
    case Status::unknown: return "❔";
  }
  return "";
}

// Every text that can carry a value from the diagnosed system is escaped
// for HTML: a device name or CUDA_VISIBLE_DEVICES holding "</details><script>"
// must stay text on GitHub and GitLab. Rule text keeps its markdown (code spans).
std::string prose(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

// Table cells: a "|" would split the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : prose(text)) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

// A value alone (evidence, what a repeat is about): no markdown of its own,
// so none of its characters may act as markdown either.
std::string value_text(std::string_view text) {
  std::string out;
  for (char c : prose(text)) {
    if (std::string_view("\\`*_[]{}()#+!|~").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string render_markdown(const Report& report) {
  std::string out = "## gpudoctor report: " + std::string(badge(report.verdict)) + " " + cell(verdict_line(report)) + "\n\n";
  out += "gpudoctor " + report.gpudoctor_version + ", mode `" + report.mode + "`";
  if (!report.machine.platform.empty()) out += ", platform " + value_text(printable(report.machine.platform, 160));
  if (!report.machine.kernel_release.empty()) out += ", kernel " + value_text(printable(report.machine.kernel_release, 160));
  if (report.redacted)
    out += "; redacted: " + (report.redacted->empty() ? std::string("nothing identifying was found") : cell(joined_list(*report.redacted)));
  out += "\n\n| | Layer | Status | Summary |\n|---|---|---|---|\n";
  for (const auto& layer : report.layers)
    out += std::string("| ") + badge(layer.status) + " | `" + layer.facts.id + "` | " + status_name(layer.status) + " | " +
           cell(layer.facts.summary) + (layer.blocked_by ? " (blocked by " + *layer.blocked_by + ")" : "") + " |\n";
  bool any = false;
  for (const auto& layer : report.layers) {
    for (const auto& group : group_by_rule(layer.findings)) {
      const Finding& finding = *group.first;
      if (!any) out += "\n### Findings\n\n";
      any = true;
      out += "- **" + std::string(severity_name(finding.severity)) + "** `" + finding.rule + "` (" + layer.facts.id +
             "): " + prose(finding.message) + "\n";
      if (finding.caused_by)
        out += "  - a consequence of `" + *finding.caused_by + "` (" + finding.cause_layer + "): fixed with its cause\n";
      for (const auto& evidence : finding.evidence)
        out += "  - evidence: `" + evidence.fact + "` = " + value_text(format_fact(evidence.value)) +
               (evidence.source.empty() ? "" : " (source: " + value_text(evidence.source) + ")") + "\n";
      out += "  - fix: " + prose(finding.fix) + "\n";
      if (!group.repeats.empty()) {
        std::vector<std::string> others;
        for (const auto* repeat : group.repeats) others.push_back(value_text(repeat->about));
        out += "  - the same for " + joined_list(others) + "\n";
      }
    }
  }
  out += "\n<details><summary>Facts per layer</summary>\n\n```json\n";
  boost::json::value facts = boost::json::object();
  for (const auto& layer : report.layers) facts.as_object()[layer.facts.id] = layer.facts.facts;
  make_valid_utf8(facts);
  // "<" and ">" appear in JSON only inside strings: written as \u003c and
  // \u003e, the block stays valid JSON and no "</details>" can close ours.
  for (char c : pretty_json(facts)) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else out += c;
  }
  out += "```\n\n</details>\n";
  return out;
}

}  // namespace gd
