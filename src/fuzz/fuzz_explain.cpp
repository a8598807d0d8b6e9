// libFuzzer target: any bytes as the text pasted into `gpudoctor explain`
// (a log on stdin, up to its 1 MiB cap), matched against every error
// signature the embedded rules carry.
#include "rules/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto* signature : gd::match_signatures(rules.signatures, text)) (void)signature->id.size();
  return 0;
}
