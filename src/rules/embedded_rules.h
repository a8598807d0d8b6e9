#pragma once
// The files of rules/, compiled in by tools/embed_rules.py.

#include <string_view>
#include <vector>

namespace gd {

struct EmbeddedRuleFile {
  std::string_view name;  // relative to rules/, e.g. "layers/hardware.json"
  std::string_view text;
};

const std::vector<EmbeddedRuleFile>& embedded_rule_files();

}  // namespace gd
