#include "child/child_evidence.h"

namespace gd {

std::string ChildRequest::key() const {
  std::string key = child_kind_name(kind);
  for (const auto& arg : args) key += " " + arg;
  return key;
}

}  // namespace gd
