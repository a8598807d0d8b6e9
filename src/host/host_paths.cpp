#include "host/host_paths.h"

#include "util/text.h"

#include <algorithm>
#include <vector>

namespace gd {

namespace {
constexpr int k_max_links = 40;
}

std::string real_path(Host& host, const std::string& path) {
  // Like realpath(3), through the host: every component, not just the last.
  std::vector<std::string> resolved;
  std::vector<std::string> pending;
  for (auto part : split(path, '/'))
    if (!part.empty() && part != ".") pending.emplace_back(part);
  std::reverse(pending.begin(), pending.end());
  int hops = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.back());
    pending.pop_back();
    if (part == "..") {
      if (!resolved.empty()) resolved.pop_back();
      continue;
    }
    std::string candidate;
    for (const auto& done : resolved) candidate += "/" + done;
    candidate += "/" + part;
    auto target = host.read_link(candidate);
    if (!target || ++hops > k_max_links) {
      resolved.push_back(part);
      continue;
    }
    if (target->starts_with("/")) resolved.clear();
    auto parts = split(*target, '/');
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
      if (!it->empty() && *it != ".") pending.emplace_back(*it);
  }
  std::string out;
  for (const auto& part : resolved) out += "/" + part;
  return out.empty() ? "/" : out;
}

}  // namespace gd
