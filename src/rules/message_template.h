#pragma once
// Fills "{path}" and "{path|fallback}" in a rule's message or fix with facts.
// A fallback may hold placeholders of its own ("{a|a build for CUDA {b}}").
// Lists print comma-separated; objects in lists print their "name" or "path";
// a fact the rule has phrases for prints the words for its value.

#include "model/fact_text.h"
#include "rules/fact_view.h"

#include <boost/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gd {

using Phrases = std::map<std::string, std::map<std::string, std::string>>;

// One placeholder of a template, braces included in [begin, end).
struct Placeholder {
  std::size_t begin = 0, end = 0;
  std::string_view path;
  std::optional<std::string_view> fallback{};
};

// How deep a fallback's placeholders may nest: rule files are checked
// against it at load, and deeper ones print as text.
inline constexpr int k_max_placeholder_depth = 4;

// The first placeholder at or after `from`; none where no brace opens, or
// none closes it (the rest is then text).
std::optional<Placeholder> next_placeholder(std::string_view text, std::size_t from);

std::string render_template(std::string_view text, const FactView& facts, const Phrases* phrases = nullptr);

}  // namespace gd
