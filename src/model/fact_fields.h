#pragma once
// Typed facts. Each layer's facts are a struct that lists its fields once, in
// a fields(F&) member, each with a one-line description:
//
//   template <class F> void fields(F& f) const {
//     f("gpu_count", gpu_count, "NVIDIA GPU functions on the PCI bus");
//   }
//
// An enum's allowed values come from its name table. A text that is not an
// enum but whose values rules compare with (an errno name) names them as a
// fourth argument: f("open", open, "...", read_outcome_names()). A text no
// list can hold (a module's name, a mode) says so with FreeText{}, and only
// then may a rule compare it with a literal it cannot check.
//
// The same list writes the JSON that rules address by path (to_fact_json)
// and the fact reference in docs/layers.md (describe_facts), so the two
// cannot drift. std::optional fields are left out when empty; Nullable
// fields are written as null.

#include "util/enum_names.h"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gd {

// A fact that is always present, null when unknown ("loaded": null = cannot tell).
template <class T>
struct Nullable {
  std::optional<T> value;
  Nullable() = default;
  Nullable(std::nullopt_t) {}
  Nullable(T v) : value(std::move(v)) {}
  Nullable& operator=(T v) {
    value = std::move(v);
    return *this;
  }
  explicit operator bool() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
};

// The fourth argument of a text fact that holds any text (see above).
struct FreeText {};

struct FactDoc {
  std::string path;  // "gpus[].compute_capability"
  std::string type;  // "string", "integer", "list of objects", ...
  std::string doc;
  std::vector<std::string> values;  // a closed set's allowed values (an enum's names); empty for open ones
  bool free_text = false;           // a text of no fixed set, marked FreeText{}
};

namespace fact_detail {

struct NoOp {
  template <class T>
  void operator()(const char*, const T&, const char*) {}
  template <class T, class Values>
  void operator()(const char*, const T&, const char*, const Values&) {}
};

template <class T>
concept Struct = requires(const T& value, NoOp& visitor) { value.fields(visitor); };

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_nullable : std::false_type {};
template <class T> struct is_nullable<Nullable<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};

}  // namespace fact_detail

template <class T>
boost::json::value to_fact_json(const T& value);

class FactJsonWriter {
 public:
  template <class T, class... Values>
  void operator()(const char* key, const T& value, const char*, const Values&...) {
    if constexpr (fact_detail::is_optional<T>::value) {
      if (value) m_out[key] = to_fact_json(*value);
    } else {
      m_out[key] = to_fact_json(value);
    }
  }
  boost::json::object take() { return std::move(m_out); }

 private:
  boost::json::object m_out;
};

template <class T>
boost::json::value to_fact_json(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return boost::json::value(value);
  } else if constexpr (std::is_enum_v<T>) {
    return boost::json::value(boost::json::string(enum_name(value)));  // found by ADL beside the enum
  } else if constexpr (std::is_integral_v<T>) {
    return boost::json::value(static_cast<std::int64_t>(value));
  } else if constexpr (std::is_floating_point_v<T>) {
    return boost::json::value(static_cast<double>(value));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return boost::json::value(boost::json::string(value));
  } else if constexpr (std::is_same_v<T, boost::json::value> || std::is_same_v<T, boost::json::object> ||
                       std::is_same_v<T, boost::json::array>) {
    return boost::json::value(value);
  } else if constexpr (fact_detail::is_nullable<T>::value) {
    return value ? to_fact_json(*value) : boost::json::value(nullptr);
  } else if constexpr (fact_detail::is_optional<T>::value) {
    return value ? to_fact_json(*value) : boost::json::value(nullptr);
  } else if constexpr (fact_detail::is_vector<T>::value) {
    boost::json::array list;
    for (const auto& item : value) list.push_back(to_fact_json(item));
    return list;
  } else {
    static_assert(fact_detail::Struct<T>, "a fact is a number, bool, string, JSON, list, optional or a struct with fields()");
    FactJsonWriter writer;
    value.fields(writer);
    return writer.take();
  }
}

template <class T>
boost::json::object to_fact_object(const T& value) {
  return to_fact_json(value).as_object();
}

namespace fact_detail {

// Finds the key fields() gives the field at one address.
struct NameFinder {
  const void* wanted;
  const char* found = nullptr;
  template <class T, class... Values>
  void operator()(const char* key, const T& value, const char*, const Values&...) {
    if (static_cast<const void*>(&value) == wanted) found = key;
  }
};

}  // namespace fact_detail

// The name fields() gives one of a struct's own members: how a probe names
// a fact it says the source of, so that a fact renamed or misspelt there does
// not compile. A member fields() does not list is a bug, and throws.
template <class Facts, class Member>
const char* fact_name(const Facts& facts, Member Facts::*member) {
  fact_detail::NameFinder finder{static_cast<const void*>(&(facts.*member))};
  facts.fields(finder);
  if (!finder.found) throw std::logic_error("a member its fields() does not list was named as a fact");
  return finder.found;
}

// Walks a facts struct's fields (and those of the structs it holds) into
// the reference: one FactDoc per field, nested ones as "list[].field".
class FactDocWriter {
 public:
  explicit FactDocWriter(std::string prefix = {}) : m_prefix(std::move(prefix)) {}

  template <class T>
  void operator()(const char* key, const T&, const char* doc) {
    add<T>(m_prefix + key, doc, false);
  }
  template <class T>
  void operator()(const char* key, const T&, const char* doc, const std::vector<std::string>& values) {
    const auto row = m_docs.size();
    add<T>(m_prefix + key, doc, false);
    m_docs[row].values = values;
  }
  template <class T>
  void operator()(const char* key, const T&, const char* doc, FreeText) {
    const auto row = m_docs.size();
    add<T>(m_prefix + key, doc, false);
    m_docs[row].free_text = true;
  }
  std::vector<FactDoc> take() { return std::move(m_docs); }

 private:
  template <class T>
  void add(const std::string& path, const char* doc, bool optional) {
    if constexpr (fact_detail::is_optional<T>::value) {
      add<typename T::value_type>(path, doc, true);
    } else if constexpr (fact_detail::is_nullable<T>::value) {
      add_row<decltype(*std::declval<T>().value)>(path, doc, optional, " or null");
    } else {
      add_row<T>(path, doc, optional, "");
    }
  }

  template <class Ref>
  void add_row(const std::string& path, const char* doc, bool optional, const char* or_null) {
    using T = std::remove_cvref_t<Ref>;
    m_docs.push_back({.path = path, .type = type_name<T>() + or_null + (optional ? ", optional" : ""), .doc = doc,
                      .values = allowed_values<T>()});
    if constexpr (fact_detail::is_vector<T>::value) {
      if constexpr (fact_detail::Struct<typename T::value_type>) nested<typename T::value_type>(path + "[].");
    } else if constexpr (fact_detail::Struct<T>) {
      nested<T>(path + ".");
    }
  }

  template <class S>
  void nested(const std::string& prefix) {
    FactDocWriter inner(prefix);
    S{}.fields(inner);
    for (auto& doc : inner.take()) m_docs.push_back(std::move(doc));
  }

  template <class T>
  static std::vector<std::string> allowed_values() {
    if constexpr (NamedEnum<T>) {
      const auto names = enum_names<T>();
      return {names.begin(), names.end()};
    } else if constexpr (fact_detail::is_vector<T>::value) {
      return allowed_values<typename T::value_type>();
    } else {
      return {};
    }
  }

  template <class T>
  static std::string type_name() {
    if constexpr (std::is_same_v<T, bool>) return "boolean";
    else if constexpr (std::is_enum_v<T>) return "string";
    else if constexpr (std::is_integral_v<T>) return "integer";
    else if constexpr (std::is_floating_point_v<T>) return "number";
    else if constexpr (std::is_same_v<T, std::string>) return "string";
    else if constexpr (std::is_same_v<T, boost::json::object>) return "object";
    else if constexpr (std::is_same_v<T, boost::json::array>) return "list";
    else if constexpr (std::is_same_v<T, boost::json::value>) return "any";
    else if constexpr (fact_detail::is_vector<T>::value) return "list of " + type_name<typename T::value_type>();
    else if constexpr (fact_detail::is_nullable<T>::value) return type_name<std::remove_cvref_t<decltype(*std::declval<T>().value)>>() + " or null";
    else return "object";
  }

  std::string m_prefix;
  std::vector<FactDoc> m_docs;
};

template <class T>
std::vector<FactDoc> describe_facts() {
  FactDocWriter writer;
  T{}.fields(writer);
  return writer.take();
}

}  // namespace gd
