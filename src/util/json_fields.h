#pragma once
// Reading fields of untrusted JSON (snapshots, rule tables) without throwing:
// a missing or mistyped field is simply absent.

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gd {

inline std::string string_field(const boost::json::object& object, const char* key) {
  const auto* value = object.if_contains(key);
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

inline std::optional<std::int64_t> int_field(const boost::json::object& object, const char* key) {
  const auto* value = object.if_contains(key);
  if (!value) return std::nullopt;
  if (value->is_int64()) return value->get_int64();
  if (value->is_uint64() && value->get_uint64() < (1ull << 62)) return static_cast<std::int64_t>(value->get_uint64());
  return std::nullopt;
}

}  // namespace gd
