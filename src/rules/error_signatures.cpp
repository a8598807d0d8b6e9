#include "rules/error_signatures.h"

#include "tables/table_rows.h"
#include "util/text.h"

#include <algorithm>

namespace gd {
namespace json = boost::json;

Checked<> load_error_signatures(const json::object& table, std::vector<ErrorSignature>& signatures) {
  return RowReader(table, "signatures").each([&](const json::object& row) -> Checked<> {
    ErrorSignature signature;
    for (auto read : {text_field(row, "id", signature.id), text_field(row, "layer", signature.layer),
                      text_field(row, "meaning", signature.meaning), text_field(row, "check", signature.check),
                      text_field(row, "source", signature.source), text_list_field(row, "match", signature.match),
                      text_list_field(row, "rules", signature.rules)})
      if (!read) return read;
    if (signature.match.empty()) return problem("\"match\" is empty");
    for (auto& text : signature.match) text = to_lower(text);
    signatures.push_back(std::move(signature));
    return {};
  });
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
