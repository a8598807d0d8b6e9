#include "rules/condition.h"

#include <cmath>
#include <cstdint>
#include <string_view>

namespace gd {
namespace json = boost::json;

namespace {

// A number as a rule writes it: 535, not 5.35E2.
json::value number_json(double number) {
  // Only a whole number within int64's range is cast: a rule may write 1e300.
  constexpr double k_limit = 9.2e18;
  if (number > -k_limit && number < k_limit && number == std::trunc(number)) return static_cast<std::int64_t>(number);
  return number;
}

json::value literal_json(const Literal& literal) {
  if (const auto* text = std::get_if<std::string>(&literal.value)) return json::string(*text);
  if (const auto* flag = std::get_if<bool>(&literal.value)) return *flag;
  return number_json(std::get<double>(literal.value));
}

}  // namespace

std::string Literal::written() const { return json::serialize(literal_json(*this)); }

json::value condition_json(const Condition& condition) {
  switch (condition.kind) {
    case Condition::Kind::all:
    case Condition::Kind::any: {
      json::array parts;
      for (const auto& part : condition.parts) parts.push_back(condition_json(part));
      return json::object{{condition.kind == Condition::Kind::all ? "all" : "any", std::move(parts)}};
    }
    case Condition::Kind::negate: return json::object{{"not", condition_json(condition.parts.front())}};
    case Condition::Kind::compare: break;
  }
  const auto& c = condition.compare;
  json::object out{{"fact", c.fact.text}};
  json::value operand;
  if (c.other) {
    operand = json::object{{"fact", c.other->text}};
  } else if (c.op == Op::in || c.op == Op::not_in) {
    json::array list;
    for (const auto& literal : c.literals) list.push_back(literal_json(literal));
    operand = std::move(list);
  } else {
    operand = literal_json(c.literals.front());
  }
  out[enum_name(c.op)] = std::move(operand);
  if (c.as_version) out["as"] = "version";
  return out;
}

namespace {

// ---- compiling ------------------------------------------------------------

std::optional<double> as_number(const json::value& value) {
  if (value.is_int64()) return static_cast<double>(value.get_int64());
  if (value.is_uint64()) return static_cast<double>(value.get_uint64());
  if (value.is_double()) return value.get_double();
  return std::nullopt;
}

Checked<Literal> compile_literal(const json::value& value, bool as_version) {
  Literal literal;
  if (const auto number = as_number(value)) literal.value = *number;
  else if (value.is_string()) literal.value = std::string(value.get_string());
  else if (value.is_bool()) literal.value = value.get_bool();
  else if (value.is_null()) return problem("null can never be compared (to ask whether a fact is known, use \"exists\")");
  else return problem("an operand is a number, a text, true or false, or {\"fact\": ...}, not " + json::serialize(value));
  if (as_version) {
    if (!literal.is_text()) return problem("\"as\": \"version\" compares texts, not " + literal.written());
    literal.version = Version::parse(std::get<std::string>(literal.value));
    if (!literal.version) return problem(literal.written() + " is no version (1 to 4 dotted numbers)");
  }
  return literal;
}

Checked<FactPath> compile_path(const json::value& value) {
  if (!value.is_string() || (value.get_string() != "item" && value.get_string().find('.') == json::string::npos))
    return problem("a comparison needs \"fact\": \"layer.name\"");
  auto path = FactPath::parse(value.get_string());
  if (!path) return problem("\"" + std::string(value.get_string()) + "\" is longer than any fact's path");
  return std::move(*path);
}

Checked<Comparison> compile_comparison(const FactPath& fact, Op op, const json::value& operand,
                                       bool as_version) {
  Comparison comparison{.fact = fact, .op = op, .as_version = as_version, .other = std::nullopt, .literals = {}};
  const std::string name = enum_name(op);
  if (op == Op::exists || op == Op::empty) {
    if (as_version) return problem("\"as\": \"version\" orders versions, it does not apply to \"" + name + "\"");
    if (!operand.is_bool()) return problem("\"" + name + "\" takes true or false");
    comparison.literals.push_back({operand.get_bool(), std::nullopt});
    return comparison;
  }
  if (const auto* other = operand.is_object() ? operand.get_object().if_contains("fact") : nullptr) {
    if (operand.get_object().size() != 1) return problem("a fact operand is {\"fact\": PATH} alone");
    auto path = compile_path(*other);
    if (!path) return path.problem();
    comparison.other = std::move(*path);
    return comparison;
  }
  const bool list = op == Op::in || op == Op::not_in;
  if (as_version && (list || op == Op::contains))
    return problem("\"as\": \"version\" orders versions (eq, ne, lt, le, gt, ge), not \"" + name + "\"");
  if (list != operand.is_array())
    return problem(list ? "\"" + name + "\" takes a list or {\"fact\": ...}" : "\"" + name + "\" takes one value, not a list");
  const auto add = [&](const json::value& value) -> Checked<> {
    auto literal = compile_literal(value, as_version);
    if (!literal) return literal.problem();
    comparison.literals.push_back(std::move(*literal));
    return {};
  };
  if (!list) {
    if (auto added = add(operand); !added) return added.problem();
    return comparison;
  }
  comparison.literals.reserve(operand.get_array().size());
  for (const auto& value : operand.get_array())
    if (auto added = add(value); !added) return added.problem();
  return comparison;
}

// ---- evaluating -----------------------------------------------------------

bool equal_json(const json::value& a, const json::value& b) {
  const auto x = as_number(a), y = as_number(b);
  if (x && y) return *x == *y;
  return a == b;
}

bool equal_literal(const json::value& fact, const Literal& literal) {
  if (const auto* number = std::get_if<double>(&literal.value)) {
    const auto x = as_number(fact);
    return x && *x == *number;
  }
  if (const auto* text = std::get_if<std::string>(&literal.value)) return fact.is_string() && fact.get_string() == *text;
  return fact.is_bool() && fact.get_bool() == std::get<bool>(literal.value);
}

int sign(std::strong_ordering order) { return order < 0 ? -1 : (order == 0 ? 0 : 1); }

// -1, 0, 1, or nullopt when the two cannot be ordered.
std::optional<int> order_json(const json::value& a, const json::value& b, bool as_version) {
  if (as_version) {
    if (!a.is_string() || !b.is_string()) return std::nullopt;
    const auto x = Version::parse(a.get_string()), y = Version::parse(b.get_string());
    if (!x || !y) return std::nullopt;
    return sign(*x <=> *y);
  }
  const auto x = as_number(a), y = as_number(b);
  if (x && y) return *x < *y ? -1 : (*x == *y ? 0 : 1);
  if (a.is_string() && b.is_string()) return sign(std::string_view(a.get_string()) <=> std::string_view(b.get_string()));
  return std::nullopt;
}

std::optional<int> order_literal(const json::value& fact, const Literal& literal, bool as_version) {
  if (as_version) {
    if (!fact.is_string() || !literal.version) return std::nullopt;
    const auto x = Version::parse(fact.get_string());
    if (!x) return std::nullopt;
    return sign(*x <=> *literal.version);
  }
  if (const auto* number = std::get_if<double>(&literal.value)) {
    const auto x = as_number(fact);
    if (!x) return std::nullopt;
    return *x < *number ? -1 : (*x == *number ? 0 : 1);
  }
  if (const auto* text = std::get_if<std::string>(&literal.value)) {
    if (!fact.is_string()) return std::nullopt;
    return sign(std::string_view(fact.get_string()) <=> std::string_view(*text));
  }
  return std::nullopt;
}

bool is_empty(const json::value& value) {
  if (value.is_array()) return value.get_array().empty();
  if (value.is_object()) return value.get_object().empty();
  if (value.is_string()) return value.get_string().empty();
  return value.is_null();
}

bool holds_order(Op op, int order) {
  switch (op) {
    case Op::eq: return order == 0;
    case Op::ne: return order != 0;
    case Op::lt: return order < 0;
    case Op::le: return order <= 0;
    case Op::gt: return order > 0;
    case Op::ge: return order >= 0;
    default: return false;
  }
}

bool contains_text(const json::value& fact, std::string_view needle) {
  return fact.is_string() && std::string_view(fact.get_string()).find(needle) != std::string_view::npos;
}

// A comparison's operand, as compare() asks it: another fact (JSON), or the
// rule's typed literals (one, or a list for in/not_in).
struct FactOperand {
  const json::value& value;
  bool is_list() const { return value.is_array(); }
  bool equal(const json::value& fact) const { return equal_json(fact, value); }
  bool any_equal(const json::value& fact) const {
    if (!value.is_array()) return false;
    for (const auto& candidate : value.get_array())
      if (equal_json(fact, candidate)) return true;
    return false;
  }
  std::optional<std::string_view> text() const {
    return value.is_string() ? std::optional<std::string_view>(value.get_string()) : std::nullopt;
  }
  std::optional<int> order(const json::value& fact, bool as_version) const { return order_json(fact, value, as_version); }
};

struct LiteralOperand {
  const std::vector<Literal>& literals;
  bool is_list() const { return true; }
  bool equal(const json::value& fact) const { return equal_literal(fact, literals.front()); }
  bool any_equal(const json::value& fact) const {
    for (const auto& candidate : literals)
      if (equal_literal(fact, candidate)) return true;
    return false;
  }
  std::optional<std::string_view> text() const {
    const auto* needle = std::get_if<std::string>(&literals.front().value);
    return needle ? std::optional<std::string_view>(*needle) : std::nullopt;
  }
  std::optional<int> order(const json::value& fact, bool as_version) const { return order_literal(fact, literals.front(), as_version); }
};

// One comparison, whichever kind of operand it has.
template <class Operand>
bool compare(const Comparison& c, const json::value& fact, const Operand& operand) {
  switch (c.op) {
    case Op::in: return operand.any_equal(fact);
    case Op::not_in: return operand.is_list() && !operand.any_equal(fact);  // against no list, neither holds
    case Op::contains:
      if (fact.is_array()) {
        for (const auto& element : fact.get_array())
          if (operand.equal(element)) return true;
        return false;
      }
      if (const auto needle = operand.text()) return contains_text(fact, *needle);
      return false;
    case Op::eq:
      if (!c.as_version) return operand.equal(fact);
      break;
    case Op::ne:
      if (!c.as_version) return !operand.equal(fact);
      break;
    default: break;
  }
  const auto order = operand.order(fact, c.as_version);
  return order && holds_order(c.op, *order);
}

bool evaluate_comparison(const Comparison& c, const FactView& facts) {
  const json::value* fact = facts.find(c.fact);
  const bool known = fact && !fact->is_null();
  if (c.op == Op::exists) return known == std::get<bool>(c.literals.front().value);
  if (!known) return false;
  if (c.op == Op::empty) return is_empty(*fact) == std::get<bool>(c.literals.front().value);
  if (c.other) {
    const json::value* operand = facts.find(*c.other);
    return operand && !operand->is_null() && compare(c, *fact, FactOperand{*operand});
  }
  return compare(c, *fact, LiteralOperand{c.literals});
}

}  // namespace

Checked<Condition> compile_condition(const json::value& value) {
  if (!value.is_object()) return problem("a condition must be an object");
  const auto& object = value.get_object();
  for (const auto& [group, kind] : {std::pair{"all", Condition::Kind::all}, std::pair{"any", Condition::Kind::any}}) {
    const auto* parts = object.if_contains(group);
    if (!parts) continue;
    if (!parts->is_array() || parts->get_array().empty()) return problem(std::string("\"") + group + "\" needs a non-empty list");
    if (object.size() != 1) return problem(std::string("\"") + group + "\" must stand alone in its object");
    Condition condition{.kind = kind, .parts = {}, .compare = {}};
    condition.parts.reserve(parts->get_array().size());
    for (const auto& part : parts->get_array()) {
      auto compiled = compile_condition(part);
      if (!compiled) return compiled.problem();
      condition.parts.push_back(std::move(*compiled));
    }
    return condition;
  }
  if (const auto* inner = object.if_contains("not")) {
    if (object.size() != 1) return problem("\"not\" must stand alone in its object");
    auto compiled = compile_condition(*inner);
    if (!compiled) return compiled.problem();
    Condition condition{.kind = Condition::Kind::negate, .parts = {}, .compare = {}};
    condition.parts.push_back(std::move(*compiled));
    return condition;
  }
  const auto* path_value = object.if_contains("fact");
  if (!path_value) return problem("a comparison needs \"fact\": \"layer.name\"");
  auto path = compile_path(*path_value);
  if (!path) return path.problem();
  bool as_version = false;
  if (const auto* as = object.if_contains("as")) {
    if (!as->is_string() || as->get_string() != "version") return problem("\"as\" can only be \"version\"");
    as_version = true;
  }
  // {"fact": F, "ge": 535, "lt": 550}: every operator must hold.
  std::vector<Condition> every;
  for (const auto& [key, operand] : object) {
    if (key == "fact" || key == "as") continue;
    const auto op = enum_from_name<Op>(key);
    if (!op) return problem("unknown operator \"" + std::string(key) + "\"");
    auto comparison = compile_comparison(*path, *op, operand, as_version);
    if (!comparison) return comparison.problem();
    Condition one{.kind = Condition::Kind::compare, .parts = {}, .compare = std::move(*comparison)};
    if (object.size() - 1 - as_version == 1) return one;  // the usual single operator: no list
    every.push_back(std::move(one));
  }
  if (every.empty()) return problem("a comparison needs an operator");
  if (every.size() == 1) return std::move(every.front());
  return Condition{.kind = Condition::Kind::all, .parts = std::move(every), .compare = {}};
}

bool evaluate_condition(const Condition& condition, const FactView& facts) {
  switch (condition.kind) {
    case Condition::Kind::all:
      for (const auto& part : condition.parts)
        if (!evaluate_condition(part, facts)) return false;
      return true;
    case Condition::Kind::any:
      for (const auto& part : condition.parts)
        if (evaluate_condition(part, facts)) return true;
      return false;
    case Condition::Kind::negate: return !evaluate_condition(condition.parts.front(), facts);
    case Condition::Kind::compare: return evaluate_comparison(condition.compare, facts);
  }
  return false;
}

}  // namespace gd
