#include "util/json_fields.h"

#include <doctest/doctest.h>

namespace gd {

TEST_CASE("JSON readers: a missing or mistyped value is absent, never a throw") {
  const auto object = boost::json::parse(R"({"s": "text", "i": 7, "big": 18446744073709551615, "d": 2.5, "b": true,
    "o": {"inner": {"leaf": "deep"}}, "a": ["x", 1, "y"], "wrong": 5})").as_object();
  CHECK(string_field(object, "s") == "text");
  CHECK(string_field(object, "wrong") == "");
  CHECK_FALSE(optional_string(object, "missing"));
  CHECK(int_field(object, "i") == 7);
  CHECK_FALSE(int_field(object, "big"));  // beyond int64: absent, not wrapped
  CHECK_FALSE(int_field(object, "d"));
  CHECK(number_field(object, "d") == 2.5);
  CHECK(number_field(object, "i") == 7.0);
  CHECK(bool_field(object, "b") == true);
  CHECK_FALSE(bool_field(object, "i"));
  CHECK(strings_field(object, "a") == std::vector<std::string>{"x", "y"});
  CHECK(strings_field(object, "s").empty());
  CHECK(object_field(object, "o"));
  CHECK_FALSE(array_field(object, "o"));
  CHECK(as_string(value_at(object, {"o", "inner", "leaf"})) == "deep");
  CHECK_FALSE(value_at(object, {"o", "missing", "leaf"}));
  CHECK_FALSE(value_at(object, {"s", "leaf"}));  // a string has no fields
  CHECK_FALSE(field(nullptr, "s"));
  CHECK_FALSE(as_int(nullptr));
}

}  // namespace gd
