#pragma once
// The rules and tables of rules/, loaded from the copy compiled into the
// binary or from a directory given with --rules.

#include "model/action.h"
#include "model/status.h"
#include "rules/condition.h"
#include "rules/error_signatures.h"
#include "rules/message_template.h"
#include "rules/outcomes.h"
#include "tables/reference_tables.h"

#include <boost/json.hpp>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gd {

// Evidence of another layer that contradicts a failure ("the nvidia module
// claims a GPU" against "no GPU on the PCI bus"): when it holds, the finding
// is reported as a warning that says what disagrees, never a failure.
struct Disagreement {
  Condition when;
  std::string says;  // a message template: what the other evidence shows
  bool operator==(const Disagreement&) const = default;
};

// What a failure predicts a program here will experience (an outcome of
// rules/tables/outcomes.json): the first entry whose condition holds, or
// that has none. A finding of the rule says it for whom this holds.
struct Prediction {
  std::optional<Condition> when;
  std::string outcome;
  bool operator==(const Prediction&) const = default;
};

struct Rule {
  std::string id;
  std::string subject = "host";  // what it judges (model/layers.h); "layer" is one of its layers
  std::string layer;
  Severity severity = Severity::fail;
  Condition when;
  std::string for_each;  // a list fact; empty for a rule about the layer as a whole
  // Rules whose findings explain this one's: when one of them fires, this
  // finding is a consequence, listed under that cause, never the headline.
  std::vector<std::string> explained_by;
  std::vector<Disagreement> disputed_by;  // fail rules only
  // Fail rules: the outcome the failure predicts. When the run's own live
  // evidence shows that outcome working, the finding is a warning that says
  // so, and if_works (a template) says whom the problem will still hurt.
  std::vector<Prediction> predicts;
  std::string if_works;
  // Fail rules: where this run has no live evidence of the outcome (the
  // static build, --no-probe), facts that show the predicted failure will
  // not reach this caller (libcuda makes missing nodes for one that may
  // mknod). The first that holds makes the finding a warning that says so.
  std::vector<Disagreement> spared_when;
  // A rule that reports a live failure only when no other failure predicted
  // it: the engine drops its finding when another failing finding predicts
  // the same outcome, so that a failure no rule explains is never OK.
  bool unless_explained = false;
  // An info rule that holds on nearly every healthy machine: the text and
  // markdown reports show it only with -v (JSON always has it).
  bool quiet = false;
  // The finding says gpudoctor could not do what the command line asked
  // (--smoke where no kernel can run): under --strict the run exits 2, as
  // for any request it cannot honour.
  bool unmet_request = false;
  std::string message;
  std::vector<std::string> evidence;
  std::string fix;
  // Words for a closed set's values: a placeholder of a fact named here
  // prints the words for its value, not the value ("static-build" -> "this
  // is the static build, which cannot load libcuda; ..."), so that the
  // sentence is the rule's and the probe gives only the value. Every value
  // the fact allows has its words, checked at load.
  Phrases phrases;
  // What a fleet should do (model/action.h). Rules that say none get their
  // severity's and layer's: none for info, inspect-hardware for the hardware
  // layer, fix-configuration elsewhere. action_fact names a fact whose value
  // is an action (an Xid's, from its table row); where it has none, action.
  Action action = Action::none;
  std::string action_fact;
  bool action_stated = false;  // the rule's file says it, not the default
  std::string source;
  std::string file;  // which rules/ file it came from
  bool operator==(const Rule&) const = default;
};

// The text of a lint check (rules/lint/*.json); its detection is in src/lint/.
struct LintRule {
  std::string id;
  Severity severity = Severity::warn;
  std::string message, fix, source;
  bool operator==(const LintRule&) const = default;
};

struct RuleSet {
  std::vector<Rule> rules;
  ReferenceTables tables;  // what probes look up; rules judge with them too
  std::vector<ErrorSignature> signatures;  // error-signatures: pasted error text -> causes
  std::vector<LintRule> lint;              // rules/lint: Dockerfile checks
  std::vector<OutcomeDef> outcomes;        // outcomes: what rules predict, and how a run sees it live

  const Rule* find(std::string_view id) const;
  const OutcomeDef* find_outcome(std::string_view id) const;
  const LintRule* find_lint(std::string_view id) const;
  bool operator==(const RuleSet&) const = default;
};

// A rules file that cannot be used; what() reads "FILE:LINE: problem".
struct RuleError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

RuleSet load_embedded_rules();
RuleSet load_rules_dir(const std::string& dir);

struct RuleFile {
  std::string name;
  std::string text;
};
// Throws RuleError naming the file and line of the first problem. (The
// built-in set reads its product table at first use: see ChipTable.)
RuleSet load_rule_files(const std::vector<RuleFile>& files);

}  // namespace gd
