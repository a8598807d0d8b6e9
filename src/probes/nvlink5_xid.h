#pragma once
// NVLink5's Xids (144-150, Blackwell) say more than their code: the unit that
// raised the error, Fatal or Nonfatal, and two words that NVIDIA's Xid catalog
// decodes into a resolution (its "XID 144-150 Decode" table,
// rules/tables/nvlink5-decode.json):
//   "NVRM: Xid (PCI:0009:01:00): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 01 (0x021425c6 0x00000000 ...)"
// The same code is a link down needing a reset on one line and a bit-error
// event that needs nothing on the next, so one action per code cannot be right.

#include "model/action.h"
#include "tables/cuda_tables.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gd {

// What follows the code: "[pid=N, name=X, ]UNIT WORD XC0 i0 Link NN (intrInfo errorStatus ...)".
struct Nvlink5Line {
  std::string_view unit;
  std::optional<bool> fatal;  // the severity word: Fatal, Nonfatal (or Non-fatal); unknown otherwise
  std::optional<std::uint32_t> intr_info, error_status;
};
Nvlink5Line parse_nvlink5_line(std::string_view text);

// The action one line asks for, and how it was decided (shown as evidence).
struct Nvlink5Decision {
  Action action = Action::none;
  std::string how;
  // NVIDIA's buckets for the row that decided (they replace the code's WORKFLOW_NVLINK5_ERR); none without a row.
  std::optional<std::string> immediate{}, investigatory{};
};

// The decode table's row where one matches; else the severity word: Nonfatal
// asks for nothing, Fatal (or a form not seen) for the catalog code's action.
Nvlink5Decision decide_nvlink5(std::int64_t code, std::string_view text, const CudaTables& tables);

}  // namespace gd
