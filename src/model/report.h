#pragma once
// The diagnosis: facts per layer, the findings the rules drew from them, and
// the verdict. Renderers turn this into text, JSON or markdown.

#include "model/action.h"
#include "model/facts.h"
#include "model/gpu_row.h"
#include "model/status.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gd {

struct Evidence {
  std::string fact{};   // "kernel-module.version"
  boost::json::value value{};
  std::string source{};  // "/proc/driver/nvidia/version"; empty when derived
};

// A failure's prediction weighed against the live evidence: the outcome it
// predicts (rules/tables/outcomes.json) and what the run itself saw of it.
struct FindingOutcome {
  std::string predicts;  // "cuda"
  Observed observed = Observed::unknown;
};

struct Finding {
  std::string rule{};
  std::string layer{};
  Severity severity = Severity::info;
  std::string message{};
  std::vector<Evidence> evidence{};
  std::string fix{};
  Action action = Action::none;  // what a fleet should do (model/action.h)
  std::string reference{};  // where the rule's knowledge comes from
  std::string about{};     // for_each rules: the item it is about ("/dev/nvidia-uvm"); else empty
  // A consequence: the root-cause finding that explains it (its rule names
  // that rule in explained_by), and the layer the cause is in. A consequence
  // is listed under its cause and never becomes the headline.
  std::optional<std::string> caused_by{};
  std::string cause_layer{};
  // What other layers show against this failure (rules/ disputed_by): the
  // finding was a failure, and is reported as a warning because of these.
  std::vector<std::string> disputed_by{};
  // Rules that predict: what the live evidence showed. Observed::works means
  // the finding was a failure and is reported as a warning because of it.
  std::optional<FindingOutcome> outcome{};
  bool quiet = false;  // shown by text and markdown only with -v (rules/ "quiet")
  bool unmet_request = false;  // gpudoctor could not do what was asked: --strict exits 2 (rules/ "unmet_request")
};

// Root causes first, then consequences, each in their own order.
std::vector<const Finding*> causes_first(const std::vector<Finding>& findings);

// Findings of one layer grouped by rule, causes first, then in order of first
// appearance: the first of each rule in full, the others by what they are about.
struct FindingGroup {
  const Finding* first;
  std::vector<const Finding*> repeats;
};
std::vector<FindingGroup> group_by_rule(const std::vector<Finding>& findings);

// "a", "a and b", "a, b and c"
std::string joined_list(const std::vector<std::string>& items);

struct LayerReport {
  LayerFacts facts;
  Status status = Status::unknown;
  std::vector<Finding> findings;
  // Every warn/fail finding here is a consequence of a cause in this layer
  // ("blocked by container"): fixing that layer fixes this one.
  std::optional<std::string> blocked_by;
};

// An outcome the run could observe, as observed (report "outcomes").
struct ReportOutcome {
  std::string id;
  Observed observed = Observed::unknown;
  std::string says;  // the live evidence, in words; empty when unknown
};

// The machine as every report's first line names it, from the typed system
// facts (all of them are in Report::system, for the rules and JSON).
struct ReportMachine {
  std::string platform;        // system.platform's name: linux, wsl2, ...
  std::string kernel_release;  // uname -r
};

struct Report {
  std::string gpudoctor_version;
  std::string subject = "host";  // what was diagnosed (model/layers.h)
  std::string mode;              // live, root, replay
  // What identifying values were replaced by placeholders, when the host's
  // answers were redacted (a redacted snapshot): said in every format.
  std::optional<std::vector<std::string>> redacted;
  boost::json::object system;
  ReportMachine machine;  // empty in a report made by hand: the first line then names no machine
  std::vector<LayerReport> layers;  // in k_layer_ids order
  std::vector<ReportOutcome> outcomes;  // the live evidence the verdict was weighed against
  // The GPU table (`gpudoctor gpus`, prometheus' gpudoctor_gpu_info), made
  // from the typed facts by check/gpu_list; empty for an image.
  std::vector<GpuRow> gpus;
  Status verdict = Status::ok;
  std::optional<std::string> failing_layer;
  // Wall time of the probes and rules (Prometheus only: a replayed report's
  // JSON stays the same from run to run).
  std::optional<double> duration_seconds;
};

// Sets each layer's status from its findings, then the verdict and the
// failing layer: the lowest layer holding a failure that is a root cause.
void settle_verdict(Report& report);

// What the closing line names: the first root-cause finding of the failing
// layer (or, in a report that only warns, of the lowest warning layer).
const Finding* headline_finding(const Report& report);

// What a fleet should do about this machine: the most disruptive action any
// root cause of the verdict's own severity asks for (model/action.h lists them
// from least to most), none when the verdict is OK. In a failing report a
// warning adds nothing, as a consequence adds nothing: its cause covers it.
Action report_action(const Report& report);

}  // namespace gd
