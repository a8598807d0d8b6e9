#include "probes/nvlink5_xid.h"

#include "util/text.h"

#include <algorithm>
#include <charconv>

namespace gd {

namespace {

constexpr std::string_view k_blanks = " \t";

// "0x8", as the catalog writes errorStatus (parse_hex reads it back).
std::string hex(std::uint32_t value) {
  char digits[8];
  const auto end = std::to_chars(digits, digits + sizeof digits, value, 16).ptr;
  return concat({"0x", std::string_view(digits, static_cast<std::size_t>(end - digits))});
}

// The next blank-separated word of text from at, or "" at the end.
std::string_view next_word(std::string_view text, std::size_t& at) {
  const auto start = text.find_first_not_of(k_blanks, at);
  if (start == std::string_view::npos) {
    at = text.size();
    return {};
  }
  const auto end = std::min(text.find_first_of(k_blanks, start), text.size());
  at = end;
  return text.substr(start, end - start);
}

// "TLW_RX/TLW_RX_PIPE0": the catalog's two spellings (before and from R575); a line may carry either or both.
const Nvlink5Row* row_for_unit(const CudaTables& tables, std::int64_t code, std::string_view unit, std::uint32_t status) {
  if (const auto* row = tables.nvlink5_row(code, unit, status)) return row;
  for (const auto part : split(unit, '/'))
    if (const auto* row = tables.nvlink5_row(code, part, status)) return row;
  return nullptr;
}

}  // namespace

Nvlink5Line parse_nvlink5_line(std::string_view text) {
  Nvlink5Line line;
  text = trim(text);
  // "pid=876767, name=ray::WorkerDict, RLW_RXPIPE ...": the process, where the driver names one.
  if (text.starts_with("pid=")) {
    const auto name = text.find("name=");
    const auto comma = text.find(',', name == std::string_view::npos ? 0 : name);
    if (comma == std::string_view::npos) return line;
    text = trim(text.substr(comma + 1));
  }
  std::size_t at = 0;
  line.unit = next_word(text, at);
  const auto word = next_word(text, at);
  if (word == "Fatal") line.fatal = true;
  if (word == "Nonfatal" || word == "Non-fatal") line.fatal = false;
  const auto open = text.find('(', at), close = text.find(')', at);
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return line;
  const auto words = text.substr(open + 1, close - open - 1);
  std::size_t inner = 0;
  line.intr_info = parse_hex(next_word(words, inner));
  line.error_status = parse_hex(next_word(words, inner));
  return line;
}

Nvlink5Decision decide_nvlink5(std::int64_t code, std::string_view text, const CudaTables& tables) {
  const auto line = parse_nvlink5_line(text);
  const std::string unit = printable(line.unit, 40);
  if (line.intr_info && tables.is_link_down_unit(line.unit)) {
    const auto reason = static_cast<std::int64_t>((*line.intr_info >> 20) & 0x3f);  // intrInfo bits 25:20
    if (const auto* row = tables.link_down_reason(reason))
      return {row->action, concat({unit, ", link-down reason ", std::to_string(reason), ": ", row->immediate, ", ", row->investigatory}),
              row->immediate, row->investigatory};
  } else if (line.error_status) {
    if (const auto* row = row_for_unit(tables, code, line.unit, *line.error_status))
      return {row->action, concat({unit, " errorStatus ", hex(*line.error_status), ": ", row->immediate, ", ", row->investigatory}),
              row->immediate, row->investigatory};
  }
  const std::string unread = unit.empty() ? std::string("a line the decode cannot read") : unit + ", not in the decode table";
  if (line.fatal == false) return {Action::none, unread + "; the line says Nonfatal: nothing to do", {}, {}};
  const auto* known = tables.xid(code);
  return {known ? known->action : Action::none,
          unread + (line.fatal ? "; the line says Fatal: the catalog's action for the code" : "; the catalog's action for the code"), {}, {}};
}

}  // namespace gd
