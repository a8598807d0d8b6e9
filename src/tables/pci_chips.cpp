#include "tables/pci_chips.h"

#include "util/json_fields.h"
#include "util/text.h"

#include <algorithm>

namespace gd {
namespace json = boost::json;

namespace {

std::optional<int> branch_field(const json::object& row, const char* key) {
  const auto value = int_field(row, key);
  return value && *value > 0 && *value < 10000 ? std::optional<int>(static_cast<int>(*value)) : std::nullopt;
}

}  // namespace

namespace {

// The next tab-separated field of line, from at; moves at past its tab.
std::string_view next_field(std::string_view line, std::size_t& at) {
  const auto tab = line.find('\t', at);
  const auto field = line.substr(std::min(at, line.size()), tab == std::string_view::npos ? std::string_view::npos : tab - at);
  at = tab == std::string_view::npos ? line.size() + 1 : tab + 1;
  return field;
}

}  // namespace

Checked<> ChipTable::load_products(std::string text) {
  m_owned_text = std::make_shared<const std::string>(std::move(text));
  load_products_lazily(*m_owned_text);
  return parse_products();
}

void ChipTable::load_products_lazily(std::string_view static_text) {
  m_products_text = static_text;
  m_products_parsed = false;
  m_products.clear();
}

Checked<> ChipTable::parse_products() const {
  m_products_parsed = true;
  m_products.clear();
  m_products.reserve(2048);
  const std::string_view all(m_products_text);
  std::size_t number = 0;
  for (std::size_t at = 0; at < all.size();) {
    const auto end = std::min(all.find('\n', at), all.size());
    const auto line = all.substr(at, end - at);
    at = end + 1;
    ++number;
    if (line.empty() || line.front() == '#') continue;
    // The message is built only for a bad line: this loop runs 2,000 times a start.
    const auto where = [number] { return "line " + std::to_string(number); };
    std::size_t field_at = 0;
    const auto id_text = next_field(line, field_at), brand = next_field(line, field_at);
    const auto product_class = next_field(line, field_at), name = next_field(line, field_at);
    if (field_at <= line.size() || name.empty()) return problem(where() + ": needs id, brand, class and name, tab-separated");
    const auto id = id_text.size() == 4 ? parse_hex(id_text) : std::nullopt;
    if (!id) return problem(where() + ": \"" + std::string(id_text) + "\" is not a 4-digit hex id");
    if (!m_products.empty() && *id <= m_products.back().id) return problem(where() + ": ids must ascend, and each appear once");
    const auto known_brand = enum_from_name<GpuBrand>(brand);
    if (!known_brand) return problem(where() + ": unknown brand \"" + std::string(brand) + "\"");
    const auto known_class = enum_from_name<ProductClass>(product_class);
    if (!known_class) return problem(where() + ": unknown class \"" + std::string(product_class) + "\"");
    m_products.push_back({*id, *known_brand, *known_class, name});
  }
  return {};
}

const ProductInfo* ChipTable::product(std::uint32_t device_id) const {
  // A built-in table that fails its checks names no product (brands unknown);
  // the test suite loads it eagerly, so that never ships.
  if (!m_products_parsed && !parse_products()) m_products.clear();
  const auto found = std::lower_bound(m_products.begin(), m_products.end(), device_id,
                                      [](const ProductInfo& row, std::uint32_t id) { return row.id < id; });
  return found != m_products.end() && found->id == device_id ? &*found : nullptr;
}

Checked<> ChipTable::load(const json::object& table) {
  const auto* rows = table.if_contains("rows");
  if (!rows || !rows->is_array()) return problem("pci-chips needs a \"rows\" list");
  m_rows.clear();
  for (const auto& value : rows->get_array()) {
    if (!value.is_object()) return problem("a pci-chips row must be an object");
    const auto& row = value.get_object();
    ChipInfo info{string_field(row, "chip"), GpuArchitecture::Kepler, string_field(row, "cc"),
                  branch_field(row, "first_branch"), branch_field(row, "last_branch"), 0, 0};
    const auto architecture = enum_from_name<GpuArchitecture>(string_field(row, "architecture"));
    if (!architecture)
      return problem("pci-chips row for \"" + info.chip + "\": \"architecture\" is none of " + joined_names<GpuArchitecture>());
    info.architecture = *architecture;
    const auto first = parse_hex(string_field(row, "first"));
    const auto last = parse_hex(string_field(row, "last"));
    if (info.chip.empty() || !first || !last || *first > *last)
      return problem("pci-chips row for \"" + info.chip + "\" needs a chip and hex \"first\" <= \"last\"");
    info.first_id = *first;
    info.last_id = *last;
    m_rows.push_back(std::move(info));
  }
  return {};
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
