#pragma once
// What a CUDA program here would experience, as the live evidence shows it:
// rules/tables/outcomes.json names each outcome a rule can predict ("cuda":
// a CUDA program cannot start), and when the run's own evidence (cuInit in a
// child, NVML, the smoke test) shows it working or failing. The evaluator
// weighs every prediction against it: live evidence outranks inference.

#include "model/status.h"
#include "rules/condition.h"
#include "util/checked.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gd {


struct OutcomeDef {
  std::string id;       // "cuda"
  std::string means;    // what fails when it is predicted: "a CUDA program cannot start here"
  // Conditions on the run's facts; an outcome without them is never seen
  // live (a framework's import, the hardware's health) and only predicted.
  std::optional<Condition> works, fails;
  std::string works_says;  // a message template: the live evidence that it works
  std::string fails_says;  // and that it fails

  bool observable() const { return works.has_value(); }
  bool operator==(const OutcomeDef&) const = default;
};

// Fills outcomes from the table; a problem names the row.
Checked<> load_outcomes(const boost::json::object& table, std::vector<OutcomeDef>& outcomes);

}  // namespace gd
