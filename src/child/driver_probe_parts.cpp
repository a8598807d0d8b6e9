#include "child/driver_probe_parts.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <set>

namespace gd::driver_probe {

void say(const json::object& line) { std::cout << json::serialize(line) << std::endl; }

void begin(const char* step) { say({{"begin", step}}); }

std::string bounded(const char* text, std::size_t max) {
  if (!text) return {};
  std::string out(text, ::strnlen(text, max));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < ' ' || c == 0x7f) c = '?';
  return out;
}

// The driver's libraries this process really mapped: what the loader chose,
// which the parent compares with its own simulation of the search.
void say_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> paths;
  std::string line;
  while (std::getline(maps, line) && paths.size() < 64) {
    const auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string path = line.substr(slash);
    if (path.find("libcuda") != std::string::npos || path.find("libnvidia-") != std::string::npos) paths.insert(path);
  }
  json::array list;
  for (const auto& path : paths) list.emplace_back(path);
  say({{"mapped", std::move(list)}});
}

}  // namespace gd::driver_probe
