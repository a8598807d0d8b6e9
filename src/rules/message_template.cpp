#include "rules/message_template.h"

#include "util/text.h"

namespace gd {
namespace json = boost::json;

namespace {

// The words a rule has for a fact's value, where it has them.
const std::string* phrase_for(const Phrases* phrases, std::string_view path, const json::value& value) {
  if (!phrases || phrases->empty() || !value.is_string()) return nullptr;  // most rules have none: no key built
  const auto table = phrases->find(std::string(path));
  if (table == phrases->end()) return nullptr;
  const auto words = table->second.find(std::string(value.get_string()));
  return words == table->second.end() ? nullptr : &words->second;
}

}  // namespace

std::optional<Placeholder> next_placeholder(std::string_view text, std::size_t from) {
  const auto open = text.find('{', from);
  if (open == std::string_view::npos) return std::nullopt;
  std::size_t depth = 0;
  for (std::size_t at = open; at < text.size(); ++at) {
    if (text[at] == '{') ++depth;
    if (text[at] != '}' || --depth != 0) continue;
    const auto inside = text.substr(open + 1, at - open - 1);
    const auto bar = inside.find('|');
    Placeholder placeholder{.begin = open, .end = at + 1, .path = inside.substr(0, bar)};
    if (bar != std::string_view::npos) placeholder.fallback = inside.substr(bar + 1);
    return placeholder;
  }
  return std::nullopt;
}

namespace {

// A fallback's placeholders are filled one level deeper, up to the bound.
std::string render_template_at(std::string_view text, const FactView& facts, const Phrases* phrases, int depth) {
  std::string out;
  std::size_t at = 0;
  while (const auto placeholder = next_placeholder(text, at)) {
    out += text.substr(at, placeholder->begin - at);
    const auto* value = facts.find(placeholder->path);
    if (const auto* words = value ? phrase_for(phrases, placeholder->path, *value) : nullptr)
      out += *words;
    else if (value && !value->is_null())
      out += format_fact(*value);
    else if (!placeholder->fallback)
      out += "unknown";
    else
      out += depth < k_max_placeholder_depth ? render_template_at(*placeholder->fallback, facts, phrases, depth + 1)
                                             : std::string(*placeholder->fallback);
    at = placeholder->end;
  }
  out += text.substr(at);
  return out;
}

}  // namespace

std::string render_template(std::string_view text, const FactView& facts, const Phrases* phrases) {
  return render_template_at(text, facts, phrases, 0);
}

}  // namespace gd
