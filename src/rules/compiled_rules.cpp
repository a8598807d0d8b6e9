#include "rules/compiled_rules.h"

#include "util/binary_form.h"

namespace gd {

std::string write_compiled_rules(const RuleSet& set) {
  BinaryWriter writer;
  writer.write(set);
  return writer.bytes();
}

RuleSet read_compiled_rules(std::string_view bytes) {
  BinaryReader reader(bytes);
  RuleSet set;
  reader.read(set);
  if (!reader.at_end()) throw BinaryFormError("bytes left after the rule set");
  return set;
}

}  // namespace gd
