// libFuzzer target: a Dockerfile, read and linted.
#include "lint/dockerfile_lint.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  gd::lint_dockerfile(gd::parse_dockerfile(std::string_view(reinterpret_cast<const char*>(data), size)), rules);
  return 0;
}
