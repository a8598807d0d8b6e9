#pragma once
// Findings to text: the human report (default), JSON (gpudoctor-report/1,
// docs/report-schema.md) and markdown for bug tickets.

#include "model/report.h"
#include "report/terminal.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gd {

inline constexpr const char* k_report_schema = "gpudoctor-report/1";

enum class Verbosity { normal, verbose };

boost::json::object report_to_json(const Report& report);
// Indented for people; one line for logs (a pre-flight's report per container start).
enum class JsonLayout { pretty, compact };
std::string render_json(const Report& report, JsonLayout layout = JsonLayout::pretty);
// Every string of value made valid UTF-8 (invalid bytes as \xNN).
void make_valid_utf8(boost::json::value& value);
// The report with every string made valid UTF-8 and terminal-safe (ESC, BEL,
// CR and C1 controls as \xNN): what the text, markdown and line forms render.
Report terminal_safe_report(Report report);
std::string render_text(const Report& report, TerminalStyle style, Verbosity verbosity);
std::string render_markdown(const Report& report);
// Prometheus text exposition, for node_exporter's textfile collector.
std::string render_prometheus(const Report& report);
// A PCI address as dcgm-exporter's pci_bus_id label writes it
// (00000000:3B:00.0), from sysfs's or nvidia-smi's form; nullopt if not one.
std::optional<std::string> dcgm_pci_bus_id(std::string_view address);

// The one-line conclusion shared by the text and markdown forms.
std::string verdict_line(const Report& report);
// --format line: the same with the machine's action, "FAIL at LAYER [ACTION]: ...".
std::string action_line(const Report& report);

}  // namespace gd
