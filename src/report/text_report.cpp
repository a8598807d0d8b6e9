#include "report/renderers.h"

#include "model/fact_text.h"
#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

struct Painter {
  TerminalStyle style;

  std::string mark(Status status) const {
    if (style.unicode) {
      switch (status) {
        case Status::ok: return paint("✓", "32");
        case Status::warn: return paint("!", "33");
        case Status::fail: return paint("✗", "31");
        case Status::skip: return paint("-", "2");
        case Status::unknown: return paint("?", "2");
      }
    }
    switch (status) {
      case Status::ok: return paint("[ ok ]", "32");
      case Status::warn: return paint("[warn]", "33");
      case Status::fail: return paint("[FAIL]", "31");
      case Status::skip: return paint("[skip]", "2");
      case Status::unknown: return paint("[ ?? ]", "2");
    }
    return "?";
  }
  std::string severity(Severity severity) const {
    return severity == Severity::info ? paint("info", "36") : mark(status_for(severity));
  }
  std::string paint(const std::string& text, const char* code) const {
    return style.color ? "\033[" + std::string(code) + "m" + text + "\033[0m" : text;
  }
  std::string bold(const std::string& text) const { return paint(text, "1"); }
};

// Columns a text takes: UTF-8 continuation bytes and colour sequences take none.
std::size_t columns(std::string_view text) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033') {
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80) ++count;
  }
  return count;
}

// The words of text, a `command in backticks` counting as one word: a fix's
// command is never broken, so it copies from the terminal in one piece.
std::vector<std::string> wrap_words(std::string_view text) {
  std::vector<std::string> words;
  bool in_code = false;
  for (auto word : split(text, ' ')) {
    if (word.empty() && !in_code) continue;
    if (in_code) words.back() += " " + std::string(word);
    else words.emplace_back(word);
    if (std::count(word.begin(), word.end(), '`') % 2 == 1) in_code = !in_code;
  }
  return words;
}

// prefix + text as one line, or, at a terminal's width, broken between words
// with every continuation indented under the text's first column.
std::string wrapped(const std::string& prefix, std::string_view text, std::size_t width) {
  const std::size_t indent = columns(prefix);
  if (width == 0 || indent + columns(text) <= width || indent + 20 > width) return prefix + std::string(text) + "\n";
  std::string out = prefix;
  std::size_t used = indent;
  bool line_empty = true;
  for (const auto& word : wrap_words(text)) {
    const std::size_t length = columns(word);
    if (!line_empty && used + 1 + length > width) {
      out += "\n" + std::string(indent, ' ');
      used = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++used;
    }
    out += std::string(word);
    used += length;
    line_empty = false;
  }
  return out + "\n";
}

void render_finding(std::string& out, const Finding& finding, const Painter& painter) {
  const std::size_t width = painter.style.width;
  out += wrapped("      " + painter.severity(finding.severity) + " ", finding.message + "  [" + finding.rule + "]", width);
  if (finding.caused_by)
    out += wrapped("        ", painter.bold("because of " + *finding.caused_by + " (" + finding.cause_layer + ")") +
                                   ": a consequence, fixed with its cause", width);
  for (const auto& evidence : finding.evidence)
    out += wrapped("        evidence: ", evidence.fact + " = " + format_fact(evidence.value) +
                                             (evidence.source.empty() ? "" : "  (" + evidence.source + ")"), width);
  out += wrapped("        fix: ", finding.fix, width);
}

}  // namespace

std::string render_text(const Report& report, TerminalStyle style, Verbosity verbosity) {
  const Painter painter{style};
  std::string out = painter.bold("gpudoctor " + report.gpudoctor_version) + " · " + report.mode;
  if (!style.unicode) out = "gpudoctor " + report.gpudoctor_version + " - " + report.mode;
  if (!report.machine.platform.empty()) out += ", " + printable(report.machine.platform, 160);
  if (!report.machine.kernel_release.empty()) out += ", kernel " + printable(report.machine.kernel_release, 160);
  if (report.redacted) out += "\nredacted: " + (report.redacted->empty() ? std::string("nothing identifying was found") : joined_list(*report.redacted));
  out += "\n\n";
  std::size_t width = 0;
  for (const auto& layer : report.layers) width = std::max(width, layer.facts.id.size());
  for (const auto& layer : report.layers) {
    out += "  " + painter.mark(layer.status) + " " + layer.facts.id +
           std::string(width - layer.facts.id.size() + 2, ' ') + layer.facts.summary +
           (layer.blocked_by ? "  (blocked by " + *layer.blocked_by + ")" : "") + "\n";
    if (verbosity == Verbosity::verbose) {
      for (const auto* finding : causes_first(layer.findings)) render_finding(out, *finding, painter);
    } else {
      // One rule firing for several nodes or libraries is one problem: shown once, then named.
      for (const auto& group : group_by_rule(layer.findings)) {
        if (group.first->quiet) continue;  // an info that holds almost everywhere: -v shows it
        render_finding(out, *group.first, painter);
        std::vector<std::string> others;
        for (const auto* repeat : group.repeats) others.push_back(repeat->about);
        if (!others.empty()) out += "      ... (the same for " + joined_list(others) + ")\n";
      }
    }
    if (verbosity == Verbosity::verbose)
      for (const auto& [key, value] : layer.facts.facts)
        out += "        " + std::string(key) + ": " + format_fact(value) + "\n";
  }
  out += "\n" + wrapped(painter.mark(report.verdict) + " ", painter.bold(verdict_line(report)), painter.style.width);
  if (report.verdict != Status::ok && verbosity == Verbosity::normal)
    out += wrapped("  ", "-v shows every fact; --format markdown makes a report to attach to a ticket.", painter.style.width);
  return out;
}

}  // namespace gd
