#pragma once
// Fills "{path}" and "{path|fallback}" in a rule's message or fix with facts.
// Lists print comma-separated; objects in lists print their "name" or "path";
// a fact the rule has phrases for prints the words for its value.

#include "model/fact_text.h"
#include "rules/fact_view.h"

#include <boost/json.hpp>

#include <map>
#include <string>
#include <string_view>

namespace gd {

using Phrases = std::map<std::string, std::map<std::string, std::string>>;

std::string render_template(std::string_view text, const FactView& facts, const Phrases* phrases = nullptr);

}  // namespace gd
