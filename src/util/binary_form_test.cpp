#include "util/binary_form.h"

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

enum class Colour : std::uint8_t { red, green };

struct Inner {
  std::string name;
  std::optional<int> number;
  bool operator==(const Inner&) const = default;
};

// An aggregate of every kind the rule set holds: its fields are found by Boost.PFR.
struct Everything {
  bool flag = false;
  std::int64_t big = 0;
  double ratio = 0;
  Colour colour = Colour::red;
  std::string text;
  std::vector<Inner> inners;
  std::array<std::uint16_t, 3> ends{};
  std::map<std::string, std::vector<int>, std::less<>> lists;
  std::optional<std::pair<std::string, std::string>> instead;
  std::variant<double, std::string, bool> literal;
  std::optional<gd::Version> version;
  bool operator==(const Everything&) const = default;
};

// A class with private state names its members itself.
class Table {
 public:
  explicit Table(std::vector<int> rows = {}) : m_rows(std::move(rows)) {}
  template <class Self, class F>
  static void stored_members(Self& self, F&& f) {
    f(self.m_rows, self.m_source);
  }
  bool operator==(const Table&) const = default;

 private:
  std::vector<int> m_rows;
  std::string m_source = "source";
};

// One that leaves a member out: == (defaulted, every member) tells, which is
// how compile_rules refuses a build whose tables would lose a member.
class Forgetful {
 public:
  Forgetful(int kept = 0, int lost = 0) : m_kept(kept), m_lost(lost) {}
  template <class Self, class F>
  static void stored_members(Self& self, F&& f) {
    f(self.m_kept);
  }
  bool operator==(const Forgetful&) const = default;

 private:
  int m_kept, m_lost;
};

template <class T>
T round_trip(const T& value) {
  gd::BinaryWriter writer;
  writer.write(value);
  gd::BinaryReader reader(writer.bytes());
  T back{};
  reader.read(back);
  CHECK(reader.at_end());
  return back;
}

Everything sample() {
  return Everything{true, -5'000'000'000, 0.25, Colour::green, std::string("with\0nul", 8),
                    {{"a", 1}, {"", std::nullopt}}, {1, 2, 65535}, {{"x", {1, 2}}, {"y", {}}},
                    std::pair{std::string("cuda"), std::string("cuda-toolkit")}, std::string("text"),
                    gd::Version::parse("12.4.1")};
}

}  // namespace

TEST_CASE("a value comes back from its binary form as it was") {
  const auto value = sample();
  CHECK(round_trip(value) == value);
  CHECK(round_trip(Everything{}) == Everything{});
  auto with_bool = value;
  with_bool.literal = false;
  CHECK(round_trip(with_bool) == with_bool);
  CHECK(round_trip(Table({3, 1, 2})) == Table({3, 1, 2}));
  CHECK_FALSE(round_trip(Table({3})) == Table({4}));
  CHECK(round_trip(value).version->text() == "12.4.1");
  CHECK(round_trip(Forgetful(1, 0)) == Forgetful(1, 0));
  CHECK_FALSE(round_trip(Forgetful(1, 2)) == Forgetful(1, 2));  // the text as written, not only an equal version
}

TEST_CASE("damaged bytes are an error, never a read past the end") {
  gd::BinaryWriter writer;
  writer.write(sample());
  const std::string bytes = writer.bytes();
  // Every shorter prefix ends early.
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    CAPTURE(size);
    gd::BinaryReader reader(std::string_view(bytes).substr(0, size));
    Everything back;
    CHECK_THROWS_AS(reader.read(back), gd::BinaryFormError);
  }
  // A size larger than what is left is refused before anything is reserved.
  std::string huge = bytes;
  huge[1 + 8 + 8 + 1] = '\xff';  // the high bytes of the text's size: after flag, big, ratio and colour
  huge[1 + 8 + 8 + 1 + 7] = '\x7f';
  gd::BinaryReader reader(huge);
  Everything back;
  CHECK_THROWS_WITH_AS(reader.read(back), "a size larger than the data", gd::BinaryFormError);
  // A variant's index past its alternatives.
  gd::BinaryWriter bad_index;
  bad_index.write(std::uint64_t{7});
  gd::BinaryReader index_reader(bad_index.bytes());
  std::variant<double, bool> literal;
  CHECK_THROWS_WITH_AS(index_reader.read(literal), "no such alternative", gd::BinaryFormError);
}
