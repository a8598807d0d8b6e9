#include "probes/conda_meta.h"

#include "util/version.h"

#include <boost/json.hpp>

#include <string_view>
#include <utility>

namespace gd {
namespace {

// A prefix has a few dozen CUDA packages; a real record is well under a MiB.
constexpr std::size_t k_max_records = 64, k_max_record = 4 << 20, k_max_bytes_per_run = 64 << 20, k_max_files = 100'000;

// conda-meta/<name>-<version>-<build>.json -> {name, version}.
std::optional<std::pair<std::string, std::string>> record_name(std::string_view file) {
  if (!file.ends_with(".json")) return std::nullopt;
  file.remove_suffix(5);
  const auto build = file.rfind('-');
  if (build == std::string_view::npos || build == 0) return std::nullopt;
  const auto version = file.rfind('-', build - 1);
  if (version == std::string_view::npos || version == 0) return std::nullopt;
  return std::pair{std::string(file.substr(0, version)), std::string(file.substr(version + 1, build - version - 1))};
}

// The packages that ship CUDA libraries: cudatoolkit (CUDA 11 and before, one
// package), cuda-* and libcu*/libnv* (CUDA 12 on, split), cudnn, nccl.
bool may_ship_cuda_library(std::string_view package) {
  return package == "cudatoolkit" || package == "cudnn" || package == "nccl" || package.starts_with("cuda-") ||
         package.starts_with("libcu") || package.starts_with("libnv");
}

}  // namespace

std::optional<CondaOwner> CondaRecords::owner_of(Host& host, const std::string& prefix, const std::string& library_path) {
  if (!library_path.starts_with(prefix + "/")) return std::nullopt;
  auto [entry, added] = m_files_of.try_emplace(prefix);
  auto& files = entry->second;
  if (added) {
    const std::string meta = prefix + "/conda-meta";
    const auto names = host.list_dir(meta);
    const std::vector<std::string> none;
    std::size_t read = 0;
    for (const auto& name : names ? *names : none) {
      const auto record = record_name(name);
      if (!record || !may_ship_cuda_library(record->first) || !Version::parse(record->second)) continue;
      if (++read > k_max_records || m_bytes_read >= k_max_bytes_per_run) break;
      auto text = host.read_file(meta + "/" + name, k_max_record);
      if (!text) continue;
      m_bytes_read += text->size();
      boost::system::error_code error;
      const auto document = boost::json::parse(*text, error);
      const auto* object = error ? nullptr : document.if_object();
      const auto* listed = object ? object->if_contains("files") : nullptr;
      if (!listed || !listed->is_array()) continue;
      for (const auto& file : listed->get_array()) {
        if (files.size() >= k_max_files) break;
        if (file.is_string())
          files.try_emplace(std::string(file.get_string()), CondaOwner{record->first, record->second, meta + "/" + name});
      }
    }
  }
  const auto found = files.find(library_path.substr(prefix.size() + 1));
  if (found == files.end()) return std::nullopt;
  return found->second;
}

}  // namespace gd
