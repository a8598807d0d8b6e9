// libFuzzer target: the kernel log's NVRM, Xid, SXid and hung-task lines,
// /dev/kmsg's records turned into dmesg's lines (and cut to their newest),
// and Fabric Manager's log, read the same way.
#include "formats/kmsg.h"
#include "probes/fabric_manager_log.h"
#include "probes/kernel_log.h"
#include "rules/rule_set.h"
#include "util/text.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gd::RuleSet rules = gd::load_embedded_rules();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gd::parse_kernel_log(text, rules.tables.cuda);
  gd::parse_fabric_manager_log(text);
  // A byte becomes at most "\xNN", a line break a line indented past a time
  // of at most 27 characters; each record gains its time.
  const std::string lines = gd::kmsg_as_dmesg(text);
  if (lines.size() > 32 * size + 64) __builtin_trap();
  gd::parse_kernel_log(lines, rules.tables.cuda);
  // The newest records kept are the input's end, and no longer than asked.
  std::string kept(text);
  const std::size_t cap = size / 2;
  gd::keep_newest_records(kept, cap);
  if (kept.size() > cap || !text.ends_with(kept)) __builtin_trap();
  return 0;
}
