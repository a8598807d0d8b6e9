#pragma once
// Error messages users paste ("Error 804: forward compatibility was
// attempted on non supported HW"), each mapped to the layer its cause
// lives in and to the rules that, when they fire, confirm a cause. Data in
// rules/tables/error-signatures.json; `gpudoctor explain "<text>"` uses it.

#include "util/checked.h"

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct ErrorSignature {
  std::string id;
  std::vector<std::string> match;  // lower case; any one, as a substring of the lower-cased text
  std::string layer, meaning, check, source;
  std::vector<std::string> rules;  // candidate causes
  bool operator==(const ErrorSignature&) const = default;
};

// Fills signatures from the table; a problem names the row.
Checked<> load_error_signatures(const boost::json::object& table, std::vector<ErrorSignature>& signatures);

// The signatures whose text occurs in text, the longest match first.
std::vector<const ErrorSignature*> match_signatures(const std::vector<ErrorSignature>& signatures, std::string_view text);

}  // namespace gd
