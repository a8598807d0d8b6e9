#include "rules/message_template.h"

#include "util/text.h"

namespace gd {
namespace json = boost::json;

namespace {

// The words a rule has for a fact's value, where it has them.
const std::string* phrase_for(const Phrases* phrases, std::string_view path, const json::value& value) {
  if (!phrases || !value.is_string()) return nullptr;
  const auto table = phrases->find(std::string(path));
  if (table == phrases->end()) return nullptr;
  const auto words = table->second.find(std::string(value.get_string()));
  return words == table->second.end() ? nullptr : &words->second;
}

}  // namespace

std::string render_template(std::string_view text, const FactView& facts, const Phrases* phrases) {
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
    if (const auto* words = value ? phrase_for(phrases, path, *value) : nullptr)
      out += *words;
    else if (value && !value->is_null())
      out += format_fact(*value);
    else
      out += bar == std::string_view::npos ? std::string("unknown") : std::string(inside.substr(bar + 1));
    at = close + 1;
  }
  return out;
}

}  // namespace gd
