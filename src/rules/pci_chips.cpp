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

bool one_of(const std::string& value, std::initializer_list<const char*> allowed) {
  for (const char* candidate : allowed)
    if (value == candidate) return true;
  return false;
}

}  // namespace

std::optional<std::string> ChipTable::load_products(const json::object& table) {
  m_products.clear();
  const auto* rows = table.if_contains("products");
  if (!rows) return std::nullopt;  // a --rules set may leave products out: brands are then unknown
  if (!rows->is_array()) return "pci-chips \"products\" must be a list";
  std::size_t index = 0;
  for (const auto& value : rows->get_array()) {
    const std::string where = "pci-chips products row " + std::to_string(++index);
    if (!value.is_object()) return where + " must be an object";
    const auto& row = value.get_object();
    const std::string id = string_field(row, "id");
    const auto parsed = parse_hex(id);
    if (id.size() != 4 || !parsed) return where + " needs a 4-digit hex \"id\"";
    ProductInfo info{string_field(row, "name"), string_field(row, "brand"), string_field(row, "class")};
    if (!one_of(info.brand, {"geforce", "titan", "quadro", "nvidiartx", "nvs", "grid", "tesla", "unknown"}))
      return where + " (" + id + "): unknown brand \"" + info.brand + "\"";
    if (!one_of(info.product_class, {"consumer", "workstation", "datacenter", "embedded", "unknown"}))
      return where + " (" + id + "): unknown class \"" + info.product_class + "\"";
    if (info.name.empty()) return where + " (" + id + ") needs a \"name\"";
    if (!m_products.emplace(*parsed, std::move(info)).second) return where + ": id " + id + " is listed twice";
  }
  return std::nullopt;
}

const ProductInfo* ChipTable::product(std::uint32_t device_id) const {
  const auto found = m_products.find(device_id);
  return found == m_products.end() ? nullptr : &found->second;
}

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
  return load_products(table);
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
