#include "formats/bounded_yaml.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("bounded YAML: a document is loaded only within its bounds, and each refusal says which") {
  const gd::YamlBounds bounds{.max_nodes = 10, .max_nesting = 4};
  const auto small = gd::load_bounded_yaml("a: [1, 2]\nb: {c: d}\n", bounds);
  REQUIRE(small);
  CHECK((*small)["b"]["c"].as<std::string>() == "d");
  // Nodes: the map, 2 keys, the list and its 2 items, the inner map, its key and value: 9.
  CHECK(gd::load_bounded_yaml("a: [1, 2]\nb: {c: d}\n", {.max_nodes = 8, .max_nesting = 4}).error() == "more than 8 nodes");
  // An alias counts as one node where it stands; what it names was counted where it was defined.
  CHECK(gd::load_bounded_yaml("a: &x [1, 2]\nb: *x\nc: *x\n", bounds));
  CHECK(gd::load_bounded_yaml("a: [[[[[1]]]]]\n", bounds).error() == "flow collections nested more than 4 deep");
  CHECK(gd::load_bounded_yaml("a: [unclosed\n", bounds).error().starts_with("not YAML: line"));
}
