#include "rules/message_template.h"

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
      for (const char* key : {"name", "path", "bdf", "value"})
        if (const auto* field = object.if_contains(key)) return format_fact(*field);
      return printable(json::serialize(value), 160);
    }
  }
  return {};
}

std::string render_template(std::string_view text, const FactView& facts) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto open = text.find('{', at);
    const auto close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) {
      out += text.substr(at);
      break;
    }
    out += text.substr(at, open - at);
    const auto inside = text.substr(open + 1, close - open - 1);
    const auto bar = inside.find('|');
    const auto path = inside.substr(0, bar);
    const auto* value = facts.find(path);
    if (value && !value->is_null())
      out += format_fact(*value);
    else
      out += bar == std::string_view::npos ? std::string("unknown") : std::string(inside.substr(bar + 1));
    at = close + 1;
  }
  return out;
}

}  // namespace gd
