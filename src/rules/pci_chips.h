#pragma once
// PCI device id -> chip, architecture and compute capability, from
// rules/tables/pci-chips.json (sources in that file).

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
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

class ChipTable {
 public:
  // Returns a description of the first bad row, or nullopt.
  std::optional<std::string> load(const boost::json::object& table);
  // The narrowest range holding the id: ranges of different chips may overlap.
  std::optional<ChipInfo> lookup(std::uint32_t device_id) const;
  std::size_t size() const { return m_rows.size(); }

 private:
  std::vector<ChipInfo> m_rows;
};

}  // namespace gd
