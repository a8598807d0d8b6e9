#include "rules/fact_view.h"

#include "util/text.h"

namespace gd {
namespace json = boost::json;

namespace {

const json::value* descend(const json::value* value, const PathSteps& path, std::size_t from) {
  for (std::size_t i = from; value && i < path.size(); ++i) {
    if (value->is_object()) {
      value = value->get_object().if_contains(path.part(i));
    } else if (value->is_array()) {
      const auto index = parse_int(path.part(i));
      const auto& array = value->get_array();
      value = index && *index >= 0 && static_cast<std::size_t>(*index) < array.size()
                  ? &array[static_cast<std::size_t>(*index)]
                  : nullptr;
    } else {
      return nullptr;
    }
  }
  return value;
}

}  // namespace

std::optional<PathSteps> PathSteps::parse(std::string_view text) {
  if (text.size() > 0xfffe) return std::nullopt;
  PathSteps path;
  path.text = text;
  for (std::size_t at = 0;; ++at) {
    if (path.steps == k_max_steps) return std::nullopt;
    const auto dot = text.find('.', at);
    path.ends[path.steps++] = static_cast<std::uint16_t>(dot == std::string_view::npos ? text.size() : dot);
    if (dot == std::string_view::npos) break;
    at = dot;
  }
  return path;
}

std::optional<FactPath> FactPath::parse(std::string_view text) {
  const auto steps = PathSteps::parse(text);
  if (!steps) return std::nullopt;
  return FactPath{std::string(text), steps->ends, steps->steps};
}

const json::value* FactView::find(const PathSteps& path) const {
  if (path.size() == 0) return nullptr;
  const auto first = path.part(0);
  if (first == "item") return m_item ? descend(m_item, path, 1) : nullptr;
  if (path.size() < 2) return nullptr;
  const json::value* top = nullptr;
  if (first == "system") {
    top = m_system.if_contains(path.part(1));
  } else {
    const auto layer = m_layers.find(first);
    if (layer == m_layers.end() || !layer->second) return nullptr;
    top = layer->second->facts.if_contains(path.part(1));
  }
  return descend(top, path, 2);
}

std::string FactView::source_of(std::string_view path) const {
  const auto parts = split(path, '.');
  if (parts[0] == "item") {
    const auto* source = m_item && m_item->is_object() ? m_item->get_object().if_contains("source") : nullptr;
    return source && source->is_string() ? std::string(source->get_string()) : std::string();
  }
  if (parts.size() < 2) return {};
  const auto layer = m_layers.find(std::string(parts[0]));
  if (layer == m_layers.end() || !layer->second) return {};
  const auto found = layer->second->sources.find(std::string(parts[1]));
  return found == layer->second->sources.end() ? std::string() : found->second;
}

}  // namespace gd
