// libFuzzer target: the kernel log's NVRM and Xid lines.
#include "probes/kernel_log.h"
#include "rules/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  gd::parse_kernel_log(std::string_view(reinterpret_cast<const char*>(data), size), rules.tables.cuda);
  return 0;
}
