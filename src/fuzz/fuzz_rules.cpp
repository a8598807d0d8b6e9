// libFuzzer target: any bytes as a --rules file, beside the built-in
// tables. A bad file is a RuleError, never a crash.
#include "rules/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    gd::load_rule_files({{"fuzz/layers/fuzz.json", std::string(reinterpret_cast<const char*>(data), size)}});
  } catch (const gd::RuleError&) {
  }
  return 0;
}
