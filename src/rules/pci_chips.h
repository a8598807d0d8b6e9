#pragma once
// PCI device id -> chip, architecture and compute capability (by id
// range), and -> product name, brand and class (by exact id), from
// rules/tables/pci-chips.json (sources in that file). The brand decides
// NVIDIA_REQUIRE_* brand= and forward compatibility, so it comes from this
// table, never from the pci.ids of whichever machine runs the check.

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gd {

struct ChipInfo {
  std::string chip;
  std::string architecture;
  std::string compute_capability;
  std::optional<int> first_branch;  // first driver branch that drives it
  std::optional<int> last_branch;   // last driver branch of a legacy architecture
  std::uint32_t first_id = 0;
  std::uint32_t last_id = 0;
};

// One marketed device id: "GH100 [H100 SXM5 80GB]", brand "tesla", class "datacenter".
struct ProductInfo {
  std::string name;
  std::string brand;          // NVML's brand, lower case: geforce, titan, quadro, nvidiartx, nvs, grid, tesla, unknown
  std::string product_class;  // consumer, workstation, datacenter, embedded, unknown
};

class ChipTable {
 public:
  // Returns a description of the first bad row, or nullopt.
  std::optional<std::string> load(const boost::json::object& table);
  // The narrowest range holding the id: ranges of different chips may overlap.
  std::optional<ChipInfo> lookup(std::uint32_t device_id) const;
  const ProductInfo* product(std::uint32_t device_id) const;
  std::size_t size() const { return m_rows.size(); }

 private:
  std::optional<std::string> load_products(const boost::json::object& table);

  std::vector<ChipInfo> m_rows;
  std::unordered_map<std::uint32_t, ProductInfo> m_products;
};

}  // namespace gd
