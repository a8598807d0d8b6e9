// The headers nearly every translation unit of the core parses: Boost.JSON
// (facts, rules and reports are JSON values) and the standard containers.
// Parsed once per build as a precompiled header (meson's cpp_pch), they cost
// a fifth of a fresh build on two cores (docs/benchmarks.md). Never included
// by a source file: the compiler puts it in front of each one itself, so no
// include guard, and nothing here may change what a file means.

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
