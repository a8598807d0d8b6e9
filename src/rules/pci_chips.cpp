#include "rules/pci_chips.h"

#include "util/json_fields.h"
#include "util/text.h"

namespace gd {
namespace json = boost::json;

namespace {

std::optional<int> branch_field(const json::object& row, const char* key) {
  const auto value = int_field(row, key);
  return value && *value > 0 && *value < 10000 ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

}  // namespace

std::optional<std::string> ChipTable::load(const json::object& table) {
  const auto* rows = table.if_contains("rows");
  if (!rows || !rows->is_array()) return "pci-chips needs a \"rows\" list";
  m_rows.clear();
  for (const auto& value : rows->get_array()) {
    if (!value.is_object()) return "a pci-chips row must be an object";
    const auto& row = value.get_object();
    ChipInfo info{string_field(row, "chip"), string_field(row, "architecture"), string_field(row, "cc"),
                  branch_field(row, "first_branch"), branch_field(row, "last_branch"), 0, 0};
    const auto first = parse_hex(string_field(row, "first"));
    const auto last = parse_hex(string_field(row, "last"));
    if (info.chip.empty() || !first || !last || *first > *last)
      return "pci-chips row for \"" + info.chip + "\" needs a chip and hex \"first\" <= \"last\"";
    info.first_id = *first;
    info.last_id = *last;
    m_rows.push_back(std::move(info));
  }
  return std::nullopt;
}

std::optional<ChipInfo> ChipTable::lookup(std::uint32_t device_id) const {
  const ChipInfo* best = nullptr;
  for (const auto& row : m_rows) {
    if (device_id < row.first_id || device_id > row.last_id) continue;
    if (!best || row.last_id - row.first_id < best->last_id - best->first_id) best = &row;
  }
  if (!best) return std::nullopt;
  return *best;
}

}  // namespace gd
