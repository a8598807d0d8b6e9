#include "util/json_pretty.h"

namespace gd {
namespace json = boost::json;

namespace {

void write(const json::value& value, std::string& out, int depth) {
  const std::string indent(static_cast<std::size_t>(depth + 1) * 2, ' ');
  const std::string closing(static_cast<std::size_t>(depth) * 2, ' ');
  if (value.is_object() && !value.get_object().empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, member] : value.get_object()) {
      if (!first) out += ",\n";
      first = false;
      out += indent + json::serialize(json::string(key)) + ": ";
      write(member, out, depth + 1);
    }
    out += "\n" + closing + "}";
  } else if (value.is_array() && !value.get_array().empty()) {
    out += "[\n";
    bool first = true;
    for (const auto& element : value.get_array()) {
      if (!first) out += ",\n";
      first = false;
      out += indent;
      write(element, out, depth + 1);
    }
    out += "\n" + closing + "]";
  } else {
    out += json::serialize(value);
  }
}

}  // namespace

std::string pretty_json(const json::value& value) {
  std::string out;
  write(value, out, 0);
  out += "\n";
  return out;
}

}  // namespace gd
