#pragma once
// The small condition language of rules/ (docs/rules-format.md):
//   {"all": [c, ...]}, {"any": [c, ...]}, {"not": c}
//   {"fact": PATH, OP: OPERAND [, "as": "version"]}
// with OP one of eq ne lt le gt ge in not_in contains exists empty, and
// OPERAND a literal or {"fact": PATH}. A comparison with a missing fact is
// false (only {"exists": false} holds), so unknown evidence never fires a rule.
//
// A condition is compiled once, when its rule is loaded, into a typed tree:
// operators are an enum, literals typed values, paths split. Evaluating it
// reads the facts and nothing of the rule's JSON; rule_facts.h checks each
// comparison against the fact it names.

#include "util/enum_names.h"
#include "rules/fact_view.h"
#include "util/checked.h"
#include "util/version.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gd {

enum class Op { eq, ne, lt, le, gt, ge, in, not_in, contains, exists, empty };
template <>
struct EnumTable<Op> {
  static constexpr std::array names{"eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "contains", "exists", "empty"};
};

// A rule's constant: a number, a text or true/false (null can never hold, so
// it is refused). A text compared "as": "version" keeps its parsed version.
struct Literal {
  std::variant<double, std::string, bool> value;
  std::optional<Version> version;

  bool is_number() const { return std::holds_alternative<double>(value); }
  bool is_text() const { return std::holds_alternative<std::string>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  std::string written() const;  // as the rule wrote it, for messages
  bool operator==(const Literal&) const = default;
};

struct Comparison {
  FactPath fact;
  Op op = Op::eq;
  bool as_version = false;
  // The operand: another fact, or literals (one, or a list for in/not_in;
  // exists and empty hold their true/false here).
  std::optional<FactPath> other;
  std::vector<Literal> literals;
  bool operator==(const Comparison&) const = default;
};

struct Condition {
  enum class Kind { all, any, negate, compare };
  Kind kind = Kind::compare;
  std::vector<Condition> parts;  // all, any: the parts; negate: the one negated
  Comparison compare;
  bool operator==(const Condition&) const = default;
};

// The condition, or what is wrong with it.
Checked<Condition> compile_condition(const boost::json::value& condition);

bool evaluate_condition(const Condition& condition, const FactView& facts);

// The condition as rules/ writes it (for `explain`).
boost::json::value condition_json(const Condition& condition);

}  // namespace gd
