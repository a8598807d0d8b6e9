#include "util/checked.h"

#include <doctest/doctest.h>

#include <string>

namespace {

gd::Checked<int> parse_digit(char c) {
  if (c < '0' || c > '9') return gd::problem(std::string("'") + c + "' is not a digit");
  return c - '0';
}

gd::Checked<> all_digits(const std::string& text) {
  for (char c : text)
    if (auto digit = parse_digit(c); !digit) return digit.problem();
  return {};
}

struct KindedError {
  int kind = 0;
  std::string message;
};

}  // namespace

TEST_CASE("Checked: a value or a problem in words, and void success carries nothing") {
  const auto seven = parse_digit('7');
  REQUIRE(seven);
  CHECK(*seven == 7);
  const auto letter = parse_digit('x');
  REQUIRE_FALSE(letter);
  CHECK(letter.error() == "'x' is not a digit");
  CHECK(all_digits("123"));
  CHECK(all_digits("1a3").error() == "'a' is not a digit");
  // A std::string value is not mistaken for a problem, nor a problem for a value.
  gd::Checked<std::string> text = std::string("ok");
  CHECK(*text == "ok");
  gd::Checked<std::string> refused = gd::problem("no");
  CHECK_FALSE(refused);
  // A richer error keeps what it adds.
  gd::Checked<int, KindedError> failed = KindedError{3, "corrupt"};
  CHECK(failed.problem().kind == 3);
  CHECK(failed.error() == "corrupt");
  gd::Checked<void, KindedError> done;
  CHECK(done);
}
