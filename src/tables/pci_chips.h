#pragma once
// PCI device id -> chip, architecture and compute capability (by id
// range), and -> product name, brand and class (by exact id), from
// rules/tables/pci-chips.json (sources in that file). The brand decides
// NVIDIA_REQUIRE_* brand= and forward compatibility, so it comes from this
// table, never from the pci.ids of whichever machine runs the check.

#include "model/gpu_kinds.h"
#include "util/checked.h"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <memory>
#include <string_view>
#include <vector>

namespace gd {

struct ChipInfo {
  std::string chip;
  GpuArchitecture architecture = GpuArchitecture::Kepler;
  std::string compute_capability;
  std::optional<int> first_branch;  // first driver branch that drives it
  std::optional<int> last_branch;   // last driver branch of a legacy architecture
  std::uint32_t first_id = 0;
  std::uint32_t last_id = 0;
  bool operator==(const ChipInfo&) const = default;
};

// One marketed device id: "GH100 [H100 SXM5 80GB]", brand "tesla", class "datacenter".
// The name points into the table's own text.
struct ProductInfo {
  std::uint32_t id = 0;
  GpuBrand brand = GpuBrand::unknown;
  ProductClass product_class = ProductClass::unknown;
  std::string_view name;
};

class ChipTable {
 public:
  // Returns a description of the first bad row, or nullopt.
  Checked<> load(const boost::json::object& table);
  // The narrowest range holding the id: ranges of different chips may overlap.
  std::optional<ChipInfo> lookup(std::uint32_t device_id) const;
  // rules/tables/pci-products.tsv: "id<TAB>brand<TAB>class<TAB>name" lines in
  // ascending id order, "#" comments. Returns the first bad line, or nullopt.
  Checked<> load_products(std::string text);
  // The built-in table, checked when the build compiles the rules and by the
  // tests: used as it is, never parsed. The text is the binary's own
  // (static), so it is neither copied nor owned.
  void load_products_lazily(std::string_view static_text);
  // Found by halving the checked text itself: a check names a GPU or eight,
  // where reading the table's 2,000 lines into rows cost more than that.
  std::optional<ProductInfo> product(std::uint32_t device_id) const;
  std::size_t size() const { return m_rows.size(); }

  // What the rule set compiled at build time stores of it (util/binary_form.h):
  // the chips; the product table stays the binary's own text, read lazily.
  template <class Self, class F>
  static void stored_members(Self& self, F&& f) {
    f(self.m_rows);
  }
  bool operator==(const ChipTable& other) const {
    return m_rows == other.m_rows && m_products_text == other.m_products_text;
  }

 private:
  std::vector<ChipInfo> m_rows;
  std::shared_ptr<const std::string> m_owned_text;  // a --rules table's text
  std::string_view m_products_text;
};

}  // namespace gd
