#include "rules/fact_view.h"

#include "util/text.h"

namespace gd {
namespace json = boost::json;

namespace {

const json::value* descend(const json::value* value, const std::vector<std::string>& parts, std::size_t from) {
  for (std::size_t i = from; value && i < parts.size(); ++i) {
    if (value->is_object()) {
      value = value->get_object().if_contains(parts[i]);
    } else if (value->is_array()) {
      const auto index = parse_int(parts[i]);
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

FactPath FactPath::parse(std::string_view text) {
  FactPath path{.text = std::string(text), .parts = {}};
  for (const auto part : split(text, '.')) path.parts.emplace_back(part);
  return path;
}

const json::value* FactView::find(const FactPath& path) const {
  const auto& parts = path.parts;
  if (parts.empty()) return nullptr;
  if (parts[0] == "item") return m_item ? descend(m_item, parts, 1) : nullptr;
  if (parts.size() < 2) return nullptr;
  const json::value* top = nullptr;
  if (parts[0] == "system") {
    top = m_system.if_contains(parts[1]);
  } else {
    const auto layer = m_layers.find(parts[0]);
    if (layer == m_layers.end() || !layer->second) return nullptr;
    top = layer->second->facts.if_contains(parts[1]);
  }
  return descend(top, parts, 2);
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
