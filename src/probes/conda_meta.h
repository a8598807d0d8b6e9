#pragma once
// The conda-meta records of the conda prefixes a check meets, read once per
// run: the first question about a prefix indexes the "files" of its records
// of CUDA packages (cudatoolkit, cuda-*, libcu*, libnv*, cudnn, nccl), and
// every later one is a lookup. Asked record by record for each library, a
// few prefixes of large records were read thousands of times over.

#include "host/host.h"

#include <map>
#include <optional>
#include <string>

namespace gd {

struct CondaOwner {
  std::string package, version, record;  // cuda-cudart, 12.4.127, its conda-meta/...json
};

class CondaRecords {
 public:
  // The record of prefix whose "files" list library_path (below prefix).
  std::optional<CondaOwner> owner_of(Host& host, const std::string& prefix, const std::string& library_path);

 private:
  std::map<std::string, std::map<std::string, CondaOwner>> m_files_of;  // prefix -> file (relative) -> owner
  std::size_t m_bytes_read = 0;                                         // against the run's budget
};

}  // namespace gd
