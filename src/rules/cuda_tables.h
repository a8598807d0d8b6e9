#pragma once
// Typed questions to the CUDA tables of rules/tables (cuda-drivers.json,
// forward-compat.json): what a driver branch supports, what a toolkit
// needs, minor-version minimums, architectures per CUDA major.

#include "rules/rule_set.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

class CudaTables {
 public:
  explicit CudaTables(const RuleSet& rules);

  // The CUDA version a driver branch reports ("12.4" for 550); for a branch
  // the table does not list, that of the nearest older branch.
  std::optional<std::string> cuda_for_branch(int branch) const;
  // The driver the toolkit of this CUDA minor ("12.4") shipped with.
  std::optional<std::string> toolkit_driver(const std::string& cuda) const;
  // The oldest driver for minor-version compatibility within a major; none before 11.
  std::optional<std::string> mvc_minimum(int major) const;
  // The lowest compute capability a CUDA major can build for.
  std::optional<std::string> min_compute_capability(int major) const;
  // Host branches a cuda-compat package of this CUDA minor supports.
  std::vector<int> forward_compat_hosts(const std::string& cuda) const;
  std::vector<std::string> forward_compat_unsupported_brands() const;

 private:
  const boost::json::array* list(const char* table, const char* key) const;
  // result_field of the first row of table[key] whose match_field equals match.
  std::optional<std::string> field_where(const char* table, const char* key, const char* match_field,
                                         const boost::json::value& match, const char* result_field) const;
  const RuleSet& m_rules;
};

}  // namespace gd
