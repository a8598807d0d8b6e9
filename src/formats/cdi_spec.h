#pragma once
// A Container Device Interface spec (/etc/cdi/*.yaml|json, /var/run/cdi/*),
// as the engines read it (tags.cncf.io/container-device-interface, specs-go):
// its kind, device names, and every host path its edits need. YAML or JSON
// (JSON is YAML); bounded: size, nesting and counts are capped.

#include "util/checked.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// A deviceNodes entry that pins its numbers: an engine creates the node in
// the container with them, where it would otherwise stat the host's.
struct CdiPinnedNode {
  std::string path;  // hostPath, else path
  std::int64_t major = 0;
  std::optional<std::int64_t> minor;
};

struct CdiSpec {
  std::string cdi_version, kind;
  std::vector<std::string> devices;     // device names: "0", "GPU-<uuid>", "all"
  std::vector<std::string> host_paths;  // mounts' hostPath, deviceNodes' hostPath (else path), hooks' path
  std::vector<std::string> common_mounts;  // the spec's own containerEdits' mounts (every device gets them): containerPath
  std::vector<CdiPinnedNode> pinned_nodes;  // deviceNodes with a major
  bool truncated = false;               // more entries than gpudoctor reads
};

inline constexpr std::size_t k_max_cdi_spec = 4 << 20;

// The spec, or the reason it is not one.
Checked<CdiSpec> parse_cdi_spec(std::string_view text);

// A YAML spec's top-level kind ("kind: nvidia.com/gpu" at the start of a
// line, as nvidia-ctk writes it), read without loading the document; empty
// where there is no such line (a JSON spec), so the caller parses it.
std::string cdi_spec_yaml_kind(std::string_view text);

}  // namespace gd
