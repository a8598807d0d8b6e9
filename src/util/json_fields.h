#pragma once
// The one set of readers for untrusted JSON (snapshots, children's answers,
// reports and facts read back): none throws, and a value that is missing or
// of another type is simply absent. Rule files and tables, which must be
// refused with a message instead, are read by tables/table_rows.h.
//
// as_*(value) reads a value that may be null; *_field(object, key) reads a
// field; field(object*, key) and value_at(object, {keys}) find one.

#include <boost/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

inline const boost::json::object* as_object(const boost::json::value* value) {
  return value && value->is_object() ? &value->get_object() : nullptr;
}

inline const boost::json::array* as_array(const boost::json::value* value) {
  return value && value->is_array() ? &value->get_array() : nullptr;
}

inline std::optional<std::string> as_string(const boost::json::value* value) {
  if (!value || !value->is_string()) return std::nullopt;
  return std::string(value->get_string());
}

// An integer that fits int64 (a uint64 beyond it is absent, not wrapped).
inline std::optional<std::int64_t> as_int(const boost::json::value* value) {
  if (!value) return std::nullopt;
  if (value->is_int64()) return value->get_int64();
  if (value->is_uint64() && value->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(value->get_uint64());
  return std::nullopt;
}

// Any number, integer or not.
inline std::optional<double> as_number(const boost::json::value* value) {
  if (value && value->is_number()) return value->to_number<double>();
  return std::nullopt;
}

inline std::optional<bool> as_bool(const boost::json::value* value) {
  if (value && value->is_bool()) return value->get_bool();
  return std::nullopt;
}

// A field of an object that may itself be absent.
inline const boost::json::value* field(const boost::json::object* object, std::string_view key) {
  return object ? object->if_contains(key) : nullptr;
}

// A field some objects deep: value_at(facts, {"require", "requested_cuda"}).
inline const boost::json::value* value_at(const boost::json::object& object, std::initializer_list<std::string_view> path) {
  const boost::json::value* value = nullptr;
  const boost::json::object* current = &object;
  for (const auto key : path) {
    if (!(value = field(current, key))) return nullptr;
    current = as_object(value);
  }
  return value;
}

inline const boost::json::object* object_field(const boost::json::object& object, std::string_view key) {
  return as_object(object.if_contains(key));
}
inline const boost::json::array* array_field(const boost::json::object& object, std::string_view key) {
  return as_array(object.if_contains(key));
}
inline std::optional<std::string> optional_string(const boost::json::object& object, std::string_view key) {
  return as_string(object.if_contains(key));
}
// The string, or "" when there is none.
inline std::string string_field(const boost::json::object& object, std::string_view key) {
  return optional_string(object, key).value_or(std::string());
}
inline std::optional<std::int64_t> int_field(const boost::json::object& object, std::string_view key) {
  return as_int(object.if_contains(key));
}
inline std::optional<double> number_field(const boost::json::object& object, std::string_view key) {
  return as_number(object.if_contains(key));
}
inline std::optional<bool> bool_field(const boost::json::object& object, std::string_view key) {
  return as_bool(object.if_contains(key));
}

// The strings of a list; other items are skipped.
inline std::vector<std::string> strings_field(const boost::json::object& object, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* list = array_field(object, key))
    for (const auto& item : *list)
      if (item.is_string()) out.emplace_back(item.get_string());
  return out;
}

}  // namespace gd
