#include "model/fact_schema.h"

#include "util/text.h"

#include <algorithm>

namespace gd {
namespace {

const FactDoc* doc_at(const std::vector<FactDoc>& docs, std::string_view path) {
  for (const auto& doc : docs)
    if (doc.path == path) return &doc;
  return nullptr;
}

bool has_members(const std::vector<FactDoc>& docs, std::string_view path) {
  return std::any_of(docs.begin(), docs.end(), [path](const FactDoc& doc) {
    return doc.path.size() > path.size() && doc.path.starts_with(path) &&
           (doc.path[path.size()] == '.' || doc.path[path.size()] == '[');
  });
}

bool is_list(const FactDoc& doc) { return doc.type.starts_with("list"); }

// An object, list or any-typed fact without declared members holds data
// whose keys are not facts of ours (NVreg parameter names, variable names).
bool is_open(const std::vector<FactDoc>& docs, const FactDoc& doc) {
  return (doc.type.starts_with("object") || doc.type.starts_with("any") || doc.type.starts_with("list of object") ||
          doc.type == "list" || doc.type.starts_with("list,") || doc.type.starts_with("list or")) &&
         !has_members(docs, doc.path);
}

// Walks the parts after the first (the layer, or item) below `prefix` (a
// normalised path, "" for the layer itself).
SchemaMatch walk(const std::vector<FactDoc>& docs, std::string prefix, const std::vector<std::string_view>& parts) {
  const FactDoc* current = prefix.empty() ? nullptr : doc_at(docs, prefix);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (current && is_open(docs, *current)) return {current, true, prefix};
    const bool index = !parts[i].empty() && std::all_of(parts[i].begin(), parts[i].end(), [](char c) { return c >= '0' && c <= '9'; });
    if (index && current && is_list(*current)) {
      prefix += "[]";
      continue;  // the element of a list of structs is no fact by itself; its fields are
    }
    prefix += (prefix.empty() ? "" : ".") + std::string(parts[i]);
    current = doc_at(docs, prefix);
    if (!current) return {};
  }
  return {current, false, prefix};
}

}  // namespace

SchemaMatch find_fact(const FactSchema& schema, std::string_view path, std::string_view item_list) {
  const auto parts = split(path, '.');
  if (parts.empty()) return {};
  std::string_view layer = parts[0];
  std::string prefix;
  if (layer == "item") {
    const auto colon = item_list.find(':');
    if (colon == std::string_view::npos) return {};
    layer = item_list.substr(0, colon);
    prefix = std::string(item_list.substr(colon + 1)) + "[]";
  }
  const auto docs = schema.layers.find(layer);
  if (docs == schema.layers.end()) return {};
  if (parts.size() == 1) {  // "item" itself: the element; a bare layer name is no fact
    if (prefix.empty()) return {};
    SchemaMatch element;
    element.doc = doc_at(docs->second, prefix.substr(0, prefix.size() - 2));
    element.normalised = std::string(layer) + ":" + prefix;
    return element;
  }
  auto match = walk(docs->second, prefix, parts);
  if (match.doc) match.normalised = std::string(layer) + ":" + match.normalised;
  return match;
}

}  // namespace gd
