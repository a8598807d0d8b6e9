#pragma once
// A compose file (compose.yaml) read with yaml-cpp, down to what touches
// GPUs: per service its GPU reservations (deploy.resources.reservations.
// devices), runtime, service-level gpus, device mappings and environment,
// each with its line. Merge keys (<<: *anchor, common for sharing a GPU
// block) are followed. Any bytes in; bounded; never throws.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct ComposeDeviceRequest {
  std::size_t line = 0;                             // the entry's first line, 1-based
  std::optional<std::string> driver;                // nvidia, cdi, ...
  std::optional<std::string> count;                 // as written: 1, all
  std::vector<std::string> device_ids;
  std::optional<std::vector<std::string>> capabilities;  // absent when not written
  std::size_t capabilities_line = 0;
  std::string capabilities_indent;                  // what precedes "capabilities:" on its line ("  - "), for a corrected line
};

struct ComposeVariable {
  std::string key, value;
  std::size_t line = 0;
  bool list_form = false;  // "- KEY=VALUE" rather than "KEY: VALUE"
  std::string indent;      // what precedes it on its line: "      - " or "      "
};

struct ComposeService {
  std::string name;
  std::size_t line = 0;
  std::vector<ComposeDeviceRequest> device_requests;
  std::optional<std::string> runtime;
  std::size_t runtime_line = 0;
  std::optional<std::size_t> gpus_line;  // service-level `gpus:`
  std::vector<std::pair<std::string, std::size_t>> devices;  // host paths of `devices:` mappings, with lines
  std::vector<ComposeVariable> environment;
};

struct ComposeFile {
  std::vector<ComposeService> services;
  std::vector<std::string> problems;  // what could not be read, said
};

inline constexpr std::size_t k_max_compose = 1 << 20;
inline constexpr std::size_t k_max_compose_nesting = 64;  // flow [ and { deep: yaml-cpp recurses on them
inline constexpr std::size_t k_max_compose_nodes = 100000;  // yaml-cpp keeps each node: a bound on its memory

ComposeFile parse_compose(std::string_view text);

}  // namespace gd
