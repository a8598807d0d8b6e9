#pragma once
// A value as bytes and back, for data the build writes and the binary reads
// (the rule set compiled at build time: src/rules/compiled_rules.h).
//
// Numbers, enums, text, the standard containers and Version are written by
// type; an aggregate field by field (Boost.PFR lists its fields, so a new
// field is written without anyone listing it); a class with private state
// names its members once, in a static stored_members(self, f). The bytes are
// this build's own, read by the same build: no versioning, no byte order.
// A reader past the end throws BinaryFormError instead of reading on.

#include "util/version.h"

#include <boost/pfr.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace gd {

struct BinaryFormError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace binary_form {

template <class T> struct is_vector : std::false_type {};
template <class T, class A> struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T> struct is_array : std::false_type {};
template <class T, std::size_t N> struct is_array<std::array<T, N>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T> struct is_map : std::false_type {};
template <class K, class V, class C, class A> struct is_map<std::map<K, V, C, A>> : std::true_type {};
template <class T> struct is_variant : std::false_type {};
template <class... T> struct is_variant<std::variant<T...>> : std::true_type {};

template <class T>
concept HasStoredMembers = requires(T& value) { T::stored_members(value, [](auto&...) {}); };

template <class T> inline constexpr bool unsupported = false;

}  // namespace binary_form

class BinaryWriter {
 public:
  template <class T>
  void write(const T& value) {
    using namespace binary_form;
    if constexpr (std::is_enum_v<T>) {
      write(static_cast<std::underlying_type_t<T>>(value));
    } else if constexpr (std::is_arithmetic_v<T>) {
      m_bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    } else if constexpr (std::is_same_v<T, std::string>) {
      write_size(value.size());
      m_bytes.append(value);
    } else if constexpr (std::is_same_v<T, Version>) {
      write(value.text());
    } else if constexpr (is_vector<T>::value || is_map<T>::value) {
      write_size(value.size());
      for (const auto& item : value) write(item);
    } else if constexpr (is_array<T>::value) {
      for (const auto& item : value) write(item);
    } else if constexpr (is_optional<T>::value) {
      write(value.has_value());
      if (value) write(*value);
    } else if constexpr (is_pair<T>::value) {
      write(value.first);
      write(value.second);
    } else if constexpr (is_variant<T>::value) {
      write_size(value.index());
      std::visit([&](const auto& held) { write(held); }, value);
    } else if constexpr (HasStoredMembers<T>) {
      T::stored_members(value, [&](const auto&... member) { (write(member), ...); });
    } else if constexpr (std::is_aggregate_v<T>) {
      boost::pfr::for_each_field(value, [&](const auto& field) { write(field); });
    } else {
      static_assert(unsupported<T>, "no binary form for this type");
    }
  }

  const std::string& bytes() const { return m_bytes; }

 private:
  void write_size(std::size_t size) { write(static_cast<std::uint64_t>(size)); }
  std::string m_bytes;
};

class BinaryReader {
 public:
  explicit BinaryReader(std::string_view bytes) : m_bytes(bytes) {}

  template <class T>
  void read(T& value) {
    using namespace binary_form;
    if constexpr (std::is_enum_v<T>) {
      std::underlying_type_t<T> raw{};
      read(raw);
      value = static_cast<T>(raw);
    } else if constexpr (std::is_arithmetic_v<T>) {
      std::memcpy(&value, take(sizeof value).data(), sizeof value);
    } else if constexpr (std::is_same_v<T, std::string>) {
      value = std::string(take(read_size()));
    } else if constexpr (std::is_same_v<T, Version>) {
      std::string text;
      read(text);
      auto parsed = Version::parse(text);
      if (!parsed) throw BinaryFormError("not a version: " + text);
      value = std::move(*parsed);
    } else if constexpr (is_vector<T>::value) {
      const auto size = read_size();
      value.clear();
      value.reserve(size);
      for (std::size_t i = 0; i < size; ++i) read(value.emplace_back());
    } else if constexpr (is_map<T>::value) {
      const auto size = read_size();
      value.clear();
      for (std::size_t i = 0; i < size; ++i) {
        std::pair<typename T::key_type, typename T::mapped_type> item;
        read(item);
        value.insert(value.end(), std::move(item));
      }
    } else if constexpr (is_array<T>::value) {
      for (auto& item : value) read(item);
    } else if constexpr (is_optional<T>::value) {
      bool present = false;
      read(present);
      if (present) read(value.emplace());
      else value.reset();
    } else if constexpr (is_pair<T>::value) {
      read(value.first);
      read(value.second);
    } else if constexpr (is_variant<T>::value) {
      std::uint64_t index = 0;
      read(index);
      read_alternative<T>(value, index, std::make_index_sequence<std::variant_size_v<T>>{});
    } else if constexpr (HasStoredMembers<T>) {
      T::stored_members(value, [&](auto&... member) { (read(member), ...); });
    } else if constexpr (std::is_aggregate_v<T>) {
      boost::pfr::for_each_field(value, [&](auto& field) { read(field); });
    } else {
      static_assert(unsupported<T>, "no binary form for this type");
    }
  }

  bool at_end() const { return m_at == m_bytes.size(); }

 private:
  std::string_view take(std::size_t size) {
    if (size > m_bytes.size() - m_at) throw BinaryFormError("the data ends early");
    const auto taken = m_bytes.substr(m_at, size);
    m_at += size;
    return taken;
  }
  std::size_t read_size() {
    std::uint64_t size = 0;
    read(size);
    // Each element takes a byte at least: a larger size is damage, not data.
    if (size > m_bytes.size() - m_at) throw BinaryFormError("a size larger than the data");
    return static_cast<std::size_t>(size);
  }
  template <class T, std::size_t... I>
  void read_alternative(T& value, std::uint64_t index, std::index_sequence<I...>) {
    if (index >= sizeof...(I)) throw BinaryFormError("no such alternative");
    ((index == I ? (read(value.template emplace<I>()), void()) : void()), ...);
  }

  std::string_view m_bytes;
  std::size_t m_at = 0;
};

}  // namespace gd
