// The report as Prometheus text exposition (format 0.0.4), for node_exporter's
// textfile collector: a fleet's dashboard and alerts read the verdict, the root
// cause, each layer's status, each finding and each GPU. Per-GPU series carry
// `pci_bus_id` written as dcgm-exporter writes it, so the two join.

#include "report/renderers.h"

#include "gpudoctor_config.h"
#include "util/text.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <regex>

namespace gd {

namespace {

// Label values: backslash, double quote and newline escaped; the value is
// already printable ASCII, and cut, since it may come from the system.
std::string label(std::string_view text) {
  std::string out;
  for (char c : printable(text, 120)) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

constexpr Status k_statuses[] = {Status::ok, Status::warn, Status::fail, Status::skip, Status::unknown};

std::string build_kind() {
  if (GPUDOCTOR_STATIC) return "static";
  return GPUDOCTOR_HAVE_LIBPCI ? "dynamic" : "glibc";
}

// A series per label set: samples whose labels came out the same (values
// that differ only past the cut) are one series, its value their count, since
// the exposition format forbids two samples with one name and label set.
class Series {
 public:
  void add(std::string labels) { ++counts_[std::move(labels)]; }
  void write(std::string& out, std::string_view name) const {
    for (const auto& [labels, count] : counts_) out += std::string(name) + "{" + labels + "} " + std::to_string(count) + "\n";
  }

 private:
  std::map<std::string, std::int64_t> counts_;
};

}  // namespace

std::optional<std::string> dcgm_pci_bus_id(std::string_view address) {
  static const std::regex bdf(R"(^([0-9a-fA-F]{4,8}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])$)");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(address.begin(), address.end(), match, bdf)) return std::nullopt;
  std::string out = std::string(8 - match.length(1), '0') + match.str(1) + ":" + match.str(2) + ":" + match.str(3) + "." + match.str(4);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string render_prometheus(const Report& report) {
  std::string out;
  out += "# HELP gpudoctor_ok 1 when no layer fails (warnings allowed), else 0.\n# TYPE gpudoctor_ok gauge\n";
  out += "gpudoctor_ok " + std::string(report.verdict == Status::fail ? "0" : "1") + "\n";
  out += "# HELP gpudoctor_verdict The verdict: 1 for the one that holds.\n# TYPE gpudoctor_verdict gauge\n";
  for (const auto status : {Status::ok, Status::warn, Status::fail})
    out += "gpudoctor_verdict{verdict=\"" + std::string(status_name(status)) + "\"} " + (report.verdict == status ? "1" : "0") + "\n";
  out += "# HELP gpudoctor_failing_layer The lowest layer that fails, when one does.\n# TYPE gpudoctor_failing_layer gauge\n";
  if (report.failing_layer) out += "gpudoctor_failing_layer{layer=\"" + label(*report.failing_layer) + "\"} 1\n";
  out += "# HELP gpudoctor_root_cause The rule the closing line names (a failure, else the lowest warning), when one does.\n"
         "# TYPE gpudoctor_root_cause gauge\n";
  if (const Finding* headline = headline_finding(report))
    out += "gpudoctor_root_cause{rule=\"" + label(headline->rule) + "\",layer=\"" + label(headline->layer) + "\",severity=\"" +
           severity_name(headline->severity) + "\",action=\"" + enum_name(headline->action) + "\"} 1\n";
  out += "# HELP gpudoctor_action What a fleet should do about this machine (the most disruptive action the root causes of its verdict ask "
         "for): 1 for the one that holds.\n# TYPE gpudoctor_action gauge\n";
  const Action action = report_action(report);
  for (const auto* name : enum_names<Action>())
    out += "gpudoctor_action{action=\"" + std::string(name) + "\"} " + (name == std::string_view(enum_name(action)) ? "1" : "0") + "\n";
  out += "# HELP gpudoctor_layer_status Each layer's status: 1 for the one that holds.\n# TYPE gpudoctor_layer_status gauge\n";
  for (const auto& layer : report.layers)
    for (const auto status : k_statuses)
      out += "gpudoctor_layer_status{layer=\"" + label(layer.facts.id) + "\",status=\"" + status_name(status) + "\"} " +
             (layer.status == status ? "1" : "0") + "\n";
  out += "# HELP gpudoctor_finding Findings of a rule with these labels (about names what a per-item rule is about, "
         "pci_bus_id the GPU when it is one; root_cause is 0 for consequences).\n# TYPE gpudoctor_finding gauge\n";
  Series findings;
  for (const auto& layer : report.layers)
    for (const auto& finding : layer.findings) {
      const auto bus_id = dcgm_pci_bus_id(finding.about);
      findings.add("rule=\"" + label(finding.rule) + "\",layer=\"" + label(layer.facts.id) + "\",severity=\"" +
                   severity_name(finding.severity) + "\",action=\"" + enum_name(finding.action) + "\",about=\"" +
                   label(finding.about) + "\"" +
                   (bus_id ? ",pci_bus_id=\"" + *bus_id + "\"" : "") + ",root_cause=\"" + (finding.caused_by ? "0" : "1") + "\"");
    }
  findings.write(out, "gpudoctor_finding");
  out += "# HELP gpudoctor_gpu_info A GPU the check saw, from the best source that answered (nvml, nvidia-smi, cuda, files).\n"
         "# TYPE gpudoctor_gpu_info gauge\n";
  Series gpus;
  for (const auto& row : report.gpus) {
    const auto bus_id = dcgm_pci_bus_id(row.bus_id);
    gpus.add("pci_bus_id=\"" + (bus_id ? *bus_id : label(row.bus_id)) + "\",uuid=\"" + label(row.uuid) + "\",name=\"" +
             label(row.name) + "\",source=\"" + label(row.source) + "\"");
  }
  gpus.write(out, "gpudoctor_gpu_info");
  if (report.duration_seconds) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.6f", *report.duration_seconds);
    out += "# HELP gpudoctor_check_duration_seconds How long the check took, probes and rules.\n"
           "# TYPE gpudoctor_check_duration_seconds gauge\ngpudoctor_check_duration_seconds " + std::string(seconds) + "\n";
  }
  out += "# HELP gpudoctor_check_info How the check looked: live, root or replay, at a host, container or image.\n"
         "# TYPE gpudoctor_check_info gauge\n";
  out += "gpudoctor_check_info{mode=\"" + label(report.mode) + "\",subject=\"" + label(report.subject) + "\"} 1\n";
  out += "# HELP gpudoctor_build_info The gpudoctor that wrote these (static, glibc or dynamic build).\n"
         "# TYPE gpudoctor_build_info gauge\n";
  out += "gpudoctor_build_info{version=\"" + label(report.gpudoctor_version) + "\",build=\"" + build_kind() + "\"} 1\n";
  return out;
}

}  // namespace gd
