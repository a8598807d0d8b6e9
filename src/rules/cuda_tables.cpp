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

std::optional<std::string> CudaTables::field_where(const char* table, const char* key, const char* match_field,
                                                   const json::value& match, const char* result_field) const {
  const auto* rows = list(table, key);
  if (!rows) return std::nullopt;
  for (const auto& row : *rows) {
    const auto* value = row.as_object().if_contains(match_field);
    if (value && *value == match) return string_field(row.as_object(), result_field);
  }
  return std::nullopt;
}

std::optional<std::string> CudaTables::toolkit_driver(const std::string& cuda) const {
  return field_where("cuda-drivers", "toolkits", "cuda", json::string(cuda), "linux_min");
}

std::optional<std::string> CudaTables::mvc_minimum(int major) const {
  return field_where("cuda-drivers", "minor_version_compatibility", "major", json::value(major), "linux_min");
}

std::optional<std::string> CudaTables::min_compute_capability(int major) const {
  return field_where("cuda-drivers", "architectures", "major", json::value(major), "min_cc");
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
