#include "model/fact_text.h"

#include "util/text.h"

namespace gd {
namespace json = boost::json;

std::string format_fact(const json::value& value) {
  switch (value.kind()) {
    case json::kind::string: return printable(value.get_string(), 160);
    case json::kind::bool_: return value.get_bool() ? "yes" : "no";
    case json::kind::int64: return std::to_string(value.get_int64());
    case json::kind::uint64: return std::to_string(value.get_uint64());
    case json::kind::double_: return json::serialize(value);
    case json::kind::null: return "none";
    case json::kind::array: {
      std::string joined;
      for (const auto& element : value.get_array()) {
        if (!joined.empty()) joined += ", ";
        joined += format_fact(element);
      }
      return joined.empty() ? "none" : joined;
    }
    case json::kind::object: {
      const auto& object = value.get_object();
      for (const char* key : {"bdf", "bus_id", "name", "path", "library", "gpu", "framework", "value", "config"})  // what tells repeats apart
        if (const auto* field = object.if_contains(key)) return format_fact(*field);
      return printable(json::serialize(value), 160);
    }
  }
  return {};
}

}  // namespace gd
