#include "rules/error_signatures.h"

#include "rules/table_rows.h"
#include "util/text.h"

#include <algorithm>

namespace gd {
namespace json = boost::json;

std::optional<std::string> load_error_signatures(const json::object& table, std::vector<ErrorSignature>& signatures) {
  const auto* rows = table.if_contains("signatures");
  if (!rows || !rows->is_array()) return std::string("needs \"signatures\": [...]");
  std::size_t index = 0;
  for (const auto& value : rows->get_array()) {
    ++index;
    const auto where = "signatures row " + std::to_string(index) + ": ";
    if (!value.is_object()) return where + "not an object";
    const auto& row = value.get_object();
    ErrorSignature signature;
    for (auto problem : {text_field(row, "id", signature.id), text_field(row, "layer", signature.layer),
                         text_field(row, "meaning", signature.meaning), text_field(row, "check", signature.check),
                         text_field(row, "source", signature.source), text_list_field(row, "match", signature.match),
                         text_list_field(row, "rules", signature.rules)})
      if (problem) return where + *problem;
    if (signature.match.empty()) return where + "\"match\" is empty";
    for (auto& text : signature.match) text = to_lower(text);
    signatures.push_back(std::move(signature));
  }
  return std::nullopt;
}

std::vector<const ErrorSignature*> match_signatures(const std::vector<ErrorSignature>& signatures, std::string_view text) {
  const std::string lower = to_lower(text.substr(0, 1 << 20));  // a pasted log, not a disk image
  std::vector<std::pair<std::size_t, const ErrorSignature*>> found;
  for (const auto& signature : signatures) {
    std::size_t longest = 0;
    for (const auto& needle : signature.match)
      if (lower.find(needle) != std::string::npos) longest = std::max(longest, needle.size());
    if (longest) found.emplace_back(longest, &signature);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const ErrorSignature*> matches;
  for (const auto& [length, signature] : found) matches.push_back(signature);
  return matches;
}

}  // namespace gd
