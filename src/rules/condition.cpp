#include "rules/condition.h"

#include "util/version.h"

#include <array>
#include <string_view>

namespace gd {
namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 11> k_operators = {"eq", "ne", "lt", "le", "gt", "ge", "in",
                                                          "not_in", "contains", "exists", "empty"};

std::optional<double> as_number(const json::value& value) {
  if (value.is_int64()) return static_cast<double>(value.get_int64());
  if (value.is_uint64()) return static_cast<double>(value.get_uint64());
  if (value.is_double()) return value.get_double();
  return std::nullopt;
}

bool equal_values(const json::value& a, const json::value& b) {
  const auto x = as_number(a), y = as_number(b);
  if (x && y) return *x == *y;
  return a == b;
}

// -1, 0, 1, or nullopt when the two cannot be ordered.
std::optional<int> compare(const json::value& a, const json::value& b, bool as_version) {
  if (as_version) {
    if (!a.is_string() || !b.is_string()) return std::nullopt;
    const auto x = Version::parse(a.get_string()), y = Version::parse(b.get_string());
    if (!x || !y) return std::nullopt;
    return *x < *y ? -1 : (*x == *y ? 0 : 1);
  }
  const auto x = as_number(a), y = as_number(b);
  if (x && y) return *x < *y ? -1 : (*x == *y ? 0 : 1);
  if (a.is_string() && b.is_string()) {
    const int order = a.get_string().compare(b.get_string());
    return order < 0 ? -1 : (order == 0 ? 0 : 1);
  }
  return std::nullopt;
}

bool is_empty(const json::value& value) {
  if (value.is_array()) return value.get_array().empty();
  if (value.is_object()) return value.get_object().empty();
  if (value.is_string()) return value.get_string().empty();
  return value.is_null();
}

const json::value* operand_value(const json::value& operand, const FactView& facts) {
  if (operand.is_object()) {
    const auto* path = operand.get_object().if_contains("fact");
    return path && path->is_string() ? facts.find(path->get_string()) : nullptr;
  }
  return &operand;
}

bool apply_operator(std::string_view op, const json::value* fact, const json::value& raw_operand,
                    const FactView& facts, bool as_version) {
  if (op == "exists") return raw_operand.is_bool() && (fact != nullptr && !fact->is_null()) == raw_operand.get_bool();
  if (!fact || fact->is_null()) return false;
  if (op == "empty") return raw_operand.is_bool() && is_empty(*fact) == raw_operand.get_bool();
  const json::value* operand = operand_value(raw_operand, facts);
  if (!operand || operand->is_null()) return false;
  if (op == "in" || op == "not_in") {
    if (!operand->is_array()) return false;
    bool found = false;
    for (const auto& candidate : operand->get_array()) found = found || equal_values(*fact, candidate);
    return op == "in" ? found : !found;
  }
  if (op == "contains") {
    if (fact->is_array()) {
      for (const auto& element : fact->get_array())
        if (equal_values(element, *operand)) return true;
      return false;
    }
    return fact->is_string() && operand->is_string() &&
           std::string_view(fact->get_string()).find(std::string_view(operand->get_string())) != std::string_view::npos;
  }
  if (!as_version && op == "eq") return equal_values(*fact, *operand);
  if (!as_version && op == "ne") return !equal_values(*fact, *operand);
  const auto order = compare(*fact, *operand, as_version);
  if (!order) return false;
  if (op == "eq") return *order == 0;
  if (op == "ne") return *order != 0;
  if (op == "lt") return *order < 0;
  if (op == "le") return *order <= 0;
  if (op == "gt") return *order > 0;
  if (op == "ge") return *order >= 0;
  return false;
}

}  // namespace

bool evaluate_condition(const json::value& condition, const FactView& facts) {
  if (!condition.is_object()) return false;
  const auto& object = condition.get_object();
  if (const auto* all = object.if_contains("all")) {
    for (const auto& part : all->get_array())
      if (!evaluate_condition(part, facts)) return false;
    return true;
  }
  if (const auto* any = object.if_contains("any")) {
    for (const auto& part : any->get_array())
      if (evaluate_condition(part, facts)) return true;
    return false;
  }
  if (const auto* inner = object.if_contains("not")) return !evaluate_condition(*inner, facts);
  const auto* path = object.if_contains("fact");
  if (!path || !path->is_string()) return false;
  const json::value* fact = facts.find(path->get_string());
  const auto* as = object.if_contains("as");
  const bool as_version = as && as->is_string() && as->get_string() == "version";
  for (const auto& [key, operand] : object) {
    if (key == "fact" || key == "as") continue;
    if (!apply_operator(key, fact, operand, facts, as_version)) return false;
  }
  return true;
}

Checked<> validate_condition(const json::value& condition) {
  if (!condition.is_object()) return problem("a condition must be an object");
  const auto& object = condition.get_object();
  for (const char* group : {"all", "any"}) {
    if (const auto* parts = object.if_contains(group)) {
      if (!parts->is_array() || parts->get_array().empty()) return problem(std::string("\"") + group + "\" needs a non-empty list");
      if (object.size() != 1) return problem(std::string("\"") + group + "\" must stand alone in its object");
      for (const auto& part : parts->get_array())
        if (auto checked = validate_condition(part); !checked) return checked;
      return {};
    }
  }
  if (const auto* inner = object.if_contains("not")) {
    if (object.size() != 1) return problem(std::string("\"not\" must stand alone in its object"));
    return validate_condition(*inner);
  }
  const auto* path = object.if_contains("fact");
  if (!path || !path->is_string() ||
      (path->get_string() != "item" && path->get_string().find('.') == json::string::npos))
    return problem("a comparison needs \"fact\": \"layer.name\"");
  int operators = 0;
  for (const auto& [key, operand] : object) {
    if (key == "fact") continue;
    if (key == "as") {
      if (!operand.is_string() || operand.get_string() != "version") return problem("\"as\" can only be \"version\"");
      continue;
    }
    bool known = false;
    for (auto op : k_operators) known = known || key == op;
    if (!known) return problem("unknown operator \"" + std::string(key) + "\"");
    if ((key == "exists" || key == "empty") && !operand.is_bool()) return problem("\"" + std::string(key) + "\" takes true or false");
    if ((key == "in" || key == "not_in") && !operand.is_array() && !(operand.is_object() && operand.get_object().contains("fact")))
      return problem("\"" + std::string(key) + "\" takes a list or {\"fact\": ...}");
    ++operators;
  }
  if (operators == 0) return problem("a comparison needs an operator");
  return {};
}

}  // namespace gd
