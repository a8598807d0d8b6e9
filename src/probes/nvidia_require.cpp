#include "probes/nvidia_require.h"

#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <cctype>

namespace gd {
namespace json = boost::json;

namespace {

constexpr std::size_t k_max_value = 4096;  // official images use a few hundred characters

struct Factor {
  std::string name, op, value;
};

std::optional<Factor> parse_factor(std::string_view text) {
  for (const char* op : {">=", "<=", "!=", "=", "<", ">"}) {
    const auto at = text.find(op);
    if (at == std::string_view::npos || at == 0) continue;
    Factor factor{std::string(trim(text.substr(0, at))), op, std::string(trim(text.substr(at + std::string_view(op).size())))};
    if (factor.value.empty()) return std::nullopt;
    if (factor.name == "brand") return factor;
    // Versions may hold only digits and dots, as nvidia-container-cli requires.
    if ((factor.name != "cuda" && factor.name != "driver" && factor.name != "arch") || !Version::parse(factor.value))
      return std::nullopt;
    return factor;
  }
  return std::nullopt;
}

bool compare(int order, const std::string& op) {
  if (op == "=") return order == 0;
  if (op == "!=") return order != 0;
  if (op == "<") return order < 0;
  if (op == "<=") return order <= 0;
  if (op == ">") return order > 0;
  return order >= 0;
}

// An unknown property counts as satisfied, as in the toolkit.
bool holds(const Factor& factor, const RequireFacts& facts, const RequireGpu* gpu) {
  if (factor.name == "brand") {
    if (!gpu || (factor.op != "=" && factor.op != "!=")) return true;
    return (enum_name(gpu->brand) == to_lower(factor.value)) == (factor.op == "=");
  }
  std::optional<std::string> property = factor.name == "cuda" ? facts.cuda : factor.name == "driver" ? facts.driver : std::nullopt;
  if (factor.name == "arch") {
    if (!gpu) return true;
    property = gpu->arch;
  }
  if (!property) return true;
  const auto have = Version::parse(*property), want = Version::parse(factor.value);
  if (!have || !want) return false;
  return compare(*have < *want ? -1 : (*have == *want ? 0 : 1), factor.op);
}

// One variable's value for one GPU; the first failing term is noted.
bool variable_holds(std::string_view value, const RequireFacts& facts, const RequireGpu* gpu, std::vector<std::string>& invalid) {
  for (auto term : split(value, ' ')) {
    if (term.empty()) continue;
    bool all = true;
    for (auto raw : split(term, ',')) {
      if (raw.empty()) continue;
      const auto factor = parse_factor(raw);
      if (!factor) {
        invalid.push_back(printable(raw, 80));
        all = false;
        continue;
      }
      all = all && holds(*factor, facts, gpu);
    }
    if (all) return true;
  }
  return false;
}

// The cuda>=X.Y of the first term, which the toolkit's error message names.
std::optional<std::string> required_cuda(std::string_view value) {
  for (auto term : split(value, ' ')) {
    if (term.empty()) continue;
    for (auto raw : split(term, ','))
      if (const auto factor = parse_factor(raw); factor && factor->name == "cuda" && factor->op == ">=") return factor->value;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

Requirements evaluate_requirements(const std::vector<std::pair<std::string, std::string>>& variables,
                                  const std::optional<std::string>& cuda_version,
                                  const std::optional<std::string>& disable, const RequireFacts& facts) {
  std::vector<std::pair<std::string, std::string>> checked;
  bool has_require_cuda = false;
  for (const auto& [name, value] : variables) {
    if (name.starts_with("NVIDIA_REQUIRE_JETPACK")) continue;
    checked.emplace_back(name, value.substr(0, k_max_value));
    has_require_cuda = has_require_cuda || name == "NVIDIA_REQUIRE_CUDA";
  }
  // Legacy images: CUDA_VERSION alone means cuda>=major.minor.
  if (!has_require_cuda && cuda_version)
    if (const auto version = Version::parse(trim(*cuda_version)))
      checked.emplace_back("CUDA_VERSION", "cuda>=" + std::to_string(version->major()) + "." + std::to_string(version->minor()));
  Requirements result{.set = !checked.empty()};
  if (checked.empty()) return result;
  // Go's strconv.ParseBool: only these spellings are true ("yes" is not).
  const std::string off = disable ? std::string(trim(*disable)) : std::string();
  result.disabled = off == "1" || off == "t" || off == "T" || off == "true" || off == "TRUE" || off == "True";
  json::object shown;
  std::vector<std::string> failed, invalid;
  for (const auto& [name, value] : checked) {
    shown[name] = printable(value, 300);
    bool ok = true;
    if (facts.gpus.empty()) ok = variable_holds(value, facts, nullptr, invalid);
    for (const auto& gpu : facts.gpus) ok = ok && variable_holds(value, facts, &gpu, invalid);
    if (ok) continue;
    failed.push_back(name);
    if (!result.required_cuda) result.required_cuda = required_cuda(value);
  }
  result.variables = std::move(shown);
  result.satisfied = failed.empty();
  result.failed = std::move(failed);
  if (!invalid.empty()) result.invalid = std::move(invalid);
  // What the image asks for, met or not: the first cuda>= of the variables checked.
  for (const auto& [name, value] : checked)
    if (auto asked = required_cuda(value)) {
      result.requested_cuda = *asked;
      break;
    }
  return result;
}

}  // namespace gd
