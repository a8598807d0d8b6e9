// libFuzzer target: any bytes as a compose file, read and linted. Bad YAML
// is a problem string; nothing crashes, hangs or recurses without bound.
#include "lint/compose.h"
#include "lint/compose_lint.h"
#include "rules/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  const auto file = gd::parse_compose(std::string_view(reinterpret_cast<const char*>(data), size));
  (void)gd::lint_compose(file, rules);
  return 0;
}
