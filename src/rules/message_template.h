#pragma once
// Fills "{path}" and "{path|fallback}" in a rule's message or fix with facts.
// Lists print comma-separated; objects in lists print their "name" or "path".

#include "model/fact_text.h"
#include "rules/fact_view.h"

#include <boost/json.hpp>

#include <string>
#include <string_view>

namespace gd {

std::string render_template(std::string_view text, const FactView& facts);

}  // namespace gd
