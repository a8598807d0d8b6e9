#include "rules/cuda_tables.h"

#include "util/json_fields.h"
#include "util/version.h"

namespace gd {
namespace json = boost::json;

CudaTables::CudaTables(const RuleSet& rules) : m_rules(rules) {}

const json::array* CudaTables::list(const char* table, const char* key) const {
  const auto found = m_rules.tables.find(table);
  if (found == m_rules.tables.end()) return nullptr;
  const auto* value = found->second.if_contains(key);
  return value && value->is_array() ? &value->get_array() : nullptr;
}

std::optional<std::string> CudaTables::cuda_for_branch(int branch) const {
  const auto* rows = list("cuda-drivers", "branches");
  if (!rows) return std::nullopt;
  std::optional<std::string> best;
  std::int64_t best_branch = 0;
  for (const auto& row : *rows) {
    const auto& object = row.as_object();
    const auto listed = int_field(object, "branch");
    if (listed && *listed <= branch && *listed >= best_branch) {
      best_branch = *listed;
      best = string_field(object, "cuda");
    }
  }
  return best;
}

std::optional<std::string> CudaTables::toolkit_driver(const std::string& cuda) const {
  const auto* rows = list("cuda-drivers", "toolkits");
  if (!rows) return std::nullopt;
  for (const auto& row : *rows)
    if (string_field(row.as_object(), "cuda") == cuda) return string_field(row.as_object(), "linux_min");
  return std::nullopt;
}

std::optional<std::string> CudaTables::mvc_minimum(int major) const {
  const auto* rows = list("cuda-drivers", "minor_version_compatibility");
  if (!rows) return std::nullopt;
  for (const auto& row : *rows)
    if (int_field(row.as_object(), "major") == major) return string_field(row.as_object(), "linux_min");
  return std::nullopt;
}

std::optional<std::string> CudaTables::min_compute_capability(int major) const {
  const auto* rows = list("cuda-drivers", "architectures");
  if (!rows) return std::nullopt;
  for (const auto& row : *rows)
    if (int_field(row.as_object(), "major") == major) return string_field(row.as_object(), "min_cc");
  return std::nullopt;
}

std::vector<int> CudaTables::forward_compat_hosts(const std::string& cuda) const {
  std::vector<int> hosts;
  const auto* rows = list("forward-compat", "packages");
  if (!rows) return hosts;
  for (const auto& row : *rows) {
    if (string_field(row.as_object(), "cuda") != cuda) continue;
    if (const auto* listed = row.as_object().if_contains("hosts"); listed && listed->is_array())
      for (const auto& host : listed->get_array())
        if (host.is_int64()) hosts.push_back(static_cast<int>(host.get_int64()));
  }
  return hosts;
}

std::vector<std::string> CudaTables::forward_compat_unsupported_brands() const {
  std::vector<std::string> brands;
  if (const auto* rows = list("forward-compat", "unsupported_brands"))
    for (const auto& brand : *rows)
      if (brand.is_string()) brands.emplace_back(brand.get_string());
  return brands;
}

}  // namespace gd
