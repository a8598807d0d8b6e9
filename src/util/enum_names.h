#pragma once
// A closed set of values is an enum with one name table, never string
// literals compared in several places. Declare the table once beside the enum:
//
//   enum class Injection { legacy, cdi, unknown, none };
//   template <> struct EnumTable<Injection> {
//     static constexpr std::array names{"legacy", "cdi", "unknown", "none"};
//   };
//
// and enum_name(), enum_from_name() and the fact reference's allowed values
// (model/fact_fields.h) follow from it.

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>
#include <string_view>
#include <type_traits>

namespace gd {

template <class E>
struct EnumTable;  // names: every value's name, in declaration order

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires { EnumTable<E>::names; };

template <NamedEnum E>
constexpr std::span<const char* const> enum_names() {
  return EnumTable<E>::names;
}

template <NamedEnum E>
constexpr const char* enum_name(E value) {
  const auto index = static_cast<std::size_t>(value);
  return index < EnumTable<E>::names.size() ? EnumTable<E>::names[index] : "unknown";
}

template <NamedEnum E>
constexpr std::optional<E> enum_from_name(std::string_view name) {
  const auto names = enum_names<E>();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (name == names[i]) return static_cast<E>(i);
  return std::nullopt;
}

// The names as texts: a fact's allowed values where the fact is text that
// may hold others too (model/fact_fields.h).
template <NamedEnum E>
std::vector<std::string> name_list() {
  const auto names = enum_names<E>();
  return {names.begin(), names.end()};
}

// "a, b or c": the names, for a message that says what is allowed.
template <NamedEnum E>
std::string joined_names() {
  std::string out;
  const auto names = enum_names<E>();
  for (std::size_t i = 0; i < names.size(); ++i) out += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

}  // namespace gd
