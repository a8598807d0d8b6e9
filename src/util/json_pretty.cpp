#include "util/json_pretty.h"

#include <charconv>
#include <cmath>

namespace gd {
namespace json = boost::json;

namespace {

void write_scalar(const json::value& value, std::string& out) {
  if (value.is_double()) out += json_number(value.get_double());
  else out += json::serialize(value);
}

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
    write_scalar(value, out);
  }
}

void write_compact(const json::value& value, std::string& out) {
  if (value.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [key, member] : value.get_object()) {
      if (!first) out += ',';
      first = false;
      out += json::serialize(json::string(key)) + ":";
      write_compact(member, out);
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& element : value.get_array()) {
      if (!first) out += ',';
      first = false;
      write_compact(element, out);
    }
    out += ']';
  } else {
    write_scalar(value, out);
  }
}

}  // namespace

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[64];
  // Plain digits for the range a person reads (ms, watts, MiB); beyond it,
  // the shortest form with an exponent (still valid JSON, still exact).
  const double magnitude = std::fabs(value);
  const auto format = magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e15) ? std::chars_format::fixed : std::chars_format::general;
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, format);
  if (error != std::errc()) return "null";
  return std::string(buffer, end);
}

std::string pretty_json(const json::value& value) {
  std::string out;
  write(value, out, 0);
  out += "\n";
  return out;
}

std::string compact_json(const json::value& value) {
  std::string out;
  write_compact(value, out);
  out += "\n";
  return out;
}

}  // namespace gd
