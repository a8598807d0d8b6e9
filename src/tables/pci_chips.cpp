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


// A product line ("2330<TAB>tesla<TAB>datacenter<TAB>GH100 [H100 SXM5 80GB]"),
// or nullopt for one that is not.
std::optional<ProductInfo> parse_product(std::string_view line) {
  std::size_t at = 0;
  const auto id_text = next_field(line, at), brand = next_field(line, at);
  const auto product_class = next_field(line, at), name = next_field(line, at);
  if (at <= line.size() || name.empty() || id_text.size() != 4) return std::nullopt;
  const auto id = parse_hex(id_text);
  const auto known_brand = enum_from_name<GpuBrand>(brand);
  const auto known_class = enum_from_name<ProductClass>(product_class);
  if (!id || !known_brand || !known_class) return std::nullopt;
  return ProductInfo{*id, *known_brand, *known_class, name};
}

bool is_product_line(std::string_view line) { return !line.empty() && line.front() != '#'; }

}  // namespace

Checked<> ChipTable::load_products(std::string text) {
  m_owned_text = std::make_shared<const std::string>(std::move(text));
  load_products_lazily(*m_owned_text);
  const std::string_view all(m_products_text);
  std::optional<std::uint32_t> previous;
  std::size_t number = 0;
  for (std::size_t at = 0; at < all.size();) {
    const auto end = std::min(all.find('\n', at), all.size());
    const auto line = all.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!is_product_line(line)) continue;
    const auto where = "line " + std::to_string(number);
    const auto product = parse_product(line);
    if (product) {
      if (previous && product->id <= *previous) return problem(where + ": ids must ascend, and each appear once");
      previous = product->id;
      continue;
    }
    // Only a bad line is taken apart again, to say what is wrong with it.
    std::size_t field_at = 0;
    const auto id_text = next_field(line, field_at), brand = next_field(line, field_at);
    const auto product_class = next_field(line, field_at), name = next_field(line, field_at);
    if (field_at <= line.size() || name.empty()) return problem(where + ": needs id, brand, class and name, tab-separated");
    if (id_text.size() != 4 || !parse_hex(id_text)) return problem(where + ": \"" + std::string(id_text) + "\" is not a 4-digit hex id");
    if (!enum_from_name<GpuBrand>(brand)) return problem(where + ": unknown brand \"" + std::string(brand) + "\"");
    return problem(where + ": unknown class \"" + std::string(product_class) + "\"");
  }
  return {};
}

void ChipTable::load_products_lazily(std::string_view static_text) { m_products_text = static_text; }

std::optional<ProductInfo> ChipTable::product(std::uint32_t device_id) const {
  const std::string_view all(m_products_text);
  const auto line_end = [&](std::size_t start) { return std::min(all.find('\n', start), all.size()); };
  // Halving over bytes: [low, high) holds the start of the line sought, if any.
  std::size_t low = 0, high = all.size();
  while (low < high) {
    const auto middle = low + (high - low) / 2;
    auto start = middle == 0 ? 0 : std::min(all.find('\n', middle - 1), all.size() - 1) + 1;
    while (start < high && !is_product_line(all.substr(start, line_end(start) - start))) start = line_end(start) + 1;
    if (start >= high) {
      high = middle;  // nothing but comments from the middle on
      continue;
    }
    const auto end = line_end(start);
    const auto product = parse_product(all.substr(start, end - start));
    if (!product) return std::nullopt;  // a table that fails its checks (never shipped: they run at build)
    if (product->id == device_id) return product;
    if (product->id < device_id) low = end + 1;
    else high = middle;
  }
  return std::nullopt;
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
