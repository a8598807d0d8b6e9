// libFuzzer target: the kernel log's NVRM, Xid, SXid and hung-task lines, and
// Fabric Manager's log, read the same way.
#include "probes/fabric_manager_log.h"
#include "probes/kernel_log.h"
#include "rules/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gd::parse_kernel_log(text, rules.tables.cuda);
  gd::parse_fabric_manager_log(text);
  return 0;
}
