#include "report/renderers.h"

#include "model/fact_text.h"
#include "util/json_pretty.h"

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

// Table cells: a "|" would split the cell and a newline would end the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

std::string render_markdown(const Report& report) {
  std::string out = "## gpudoctor report: " + std::string(badge(report.verdict)) + " " + cell(verdict_line(report)) + "\n\n";
  out += "gpudoctor " + report.gpudoctor_version + ", mode `" + report.mode + "`";
  if (const auto* platform = report.system.if_contains("platform")) out += ", platform `" + format_fact(*platform) + "`";
  if (const auto* kernel = report.system.if_contains("kernel_release")) out += ", kernel `" + format_fact(*kernel) + "`";
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
             "): " + finding.message + "\n";
      if (finding.caused_by)
        out += "  - a consequence of `" + *finding.caused_by + "` (" + finding.cause_layer + "): fixed with its cause\n";
      for (const auto& evidence : finding.evidence)
        out += "  - evidence: `" + evidence.fact + "` = " + cell(format_fact(evidence.value)) +
               (evidence.source.empty() ? "" : " (`" + evidence.source + "`)") + "\n";
      out += "  - fix: " + finding.fix + "\n";
      if (!group.repeats.empty()) {
        std::vector<std::string> others;
        for (const auto* repeat : group.repeats) others.push_back("`" + cell(repeat->about) + "`");
        out += "  - the same for " + joined_list(others) + "\n";
      }
    }
  }
  out += "\n<details><summary>Facts per layer</summary>\n\n```json\n";
  boost::json::object facts;
  for (const auto& layer : report.layers) facts[layer.facts.id] = layer.facts.facts;
  out += pretty_json(facts);
  out += "```\n\n</details>\n";
  return out;
}

}  // namespace gd
