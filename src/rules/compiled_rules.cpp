#include "rules/compiled_rules.h"

#include "util/binary_form.h"

#include <boost/pfr/core.hpp>

namespace gd {

// The parts are listed by hand: a member added to RuleSet must be given to one of them.
static_assert(boost::pfr::tuple_size_v<RuleSet> == 5, "RuleSet changed: write and read its new member here");

CompiledRules write_compiled_rules(const RuleSet& set) {
  BinaryWriter tables;
  tables.write(set.tables);
  BinaryWriter rules;
  rules.write(set.rules);
  rules.write(set.signatures);
  rules.write(set.lint);
  rules.write(set.outcomes);
  return {tables.bytes(), rules.bytes()};
}

ReferenceTables read_compiled_tables(std::string_view bytes) {
  BinaryReader reader(bytes);
  ReferenceTables tables;
  reader.read(tables);
  if (!reader.at_end()) throw BinaryFormError("bytes left after the tables");
  return tables;
}

void read_compiled_rules(std::string_view bytes, RuleSet& set) {
  BinaryReader reader(bytes);
  RuleSet read;
  reader.read(read.rules);
  reader.read(read.signatures);
  reader.read(read.lint);
  reader.read(read.outcomes);
  if (!reader.at_end()) throw BinaryFormError("bytes left after the rule set");
  set.rules = std::move(read.rules);
  set.signatures = std::move(read.signatures);
  set.lint = std::move(read.lint);
  set.outcomes = std::move(read.outcomes);
}

}  // namespace gd
