#pragma once
// YAML (and JSON) read with a bound on what it becomes. yaml-cpp keeps every
// node of a document, some hundreds of bytes each, and its aliases share a
// node that every reader then walks again: 4 MiB of short scalars became a
// gigabyte. So a document is first counted, event by event, keeping nothing,
// and loaded only when it has no more nodes than such files really have.

#include "util/checked.h"

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string_view>

namespace gd {

struct YamlBounds {
  std::size_t max_nodes;    // scalars, nulls, sequences, maps and aliases, all counted
  std::size_t max_nesting;  // flow collections ([ {), which yaml-cpp parses by recursion
};

// The first document, or why it was not read ("not YAML: ...", "more than N
// nodes", "nested more than N deep").
Checked<YAML::Node> load_bounded_yaml(std::string_view text, YamlBounds bounds);

}  // namespace gd
