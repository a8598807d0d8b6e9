#include "rules/outcomes.h"

#include "rules/condition.h"
#include "tables/table_rows.h"

namespace gd {
namespace json = boost::json;

namespace {

// An outcome seen live has both conditions and what each says; one only
// predicted has neither.
Checked<> read_observation(const json::object& row, OutcomeDef& outcome) {
  const auto* works = row.if_contains("works");
  const auto* fails = row.if_contains("fails");
  if (!works && !fails) return {};
  if (!works || !fails) return problem("an outcome seen live needs both \"works\" and \"fails\"");
  auto works_when = compile_condition(*works);
  if (!works_when) return works_when.problem();
  auto fails_when = compile_condition(*fails);
  if (!fails_when) return fails_when.problem();
  if (auto read = text_field(row, "works_says", outcome.works_says); !read) return read;
  if (auto read = text_field(row, "fails_says", outcome.fails_says); !read) return read;
  outcome.works = std::move(*works_when);
  outcome.fails = std::move(*fails_when);
  return {};
}

}  // namespace

Checked<> load_outcomes(const json::object& table, std::vector<OutcomeDef>& outcomes) {
  return RowReader(table, "outcomes").each([&](const json::object& row) -> Checked<> {
    OutcomeDef outcome;
    if (auto read = text_field(row, "id", outcome.id); !read) return read;
    if (auto read = text_field(row, "means", outcome.means); !read) return read;
    for (const auto& other : outcomes)
      if (other.id == outcome.id) return problem("\"" + outcome.id + "\" is listed twice");
    if (auto read = read_observation(row, outcome); !read) return read;
    outcomes.push_back(std::move(outcome));
    return {};
  });
}

}  // namespace gd
