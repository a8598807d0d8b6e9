#pragma once
// `gpudoctor __child crio-config SOCKET`: GET /config on CRI-O's socket, the
// request `crio status config` makes (crio serves HTTP/1 beside gRPC on the
// same socket). The answer is the configuration crio runs with: what it read
// at start, or at its last reload (SIGHUP, `systemctl reload crio`, which
// rereads the runtimes from CRI-O 1.25 on), with its command line's flags
// applied and runtimes whose program it did not find dropped. It prints only
// the lines gpudoctor reads, as TOML: not the rest (default_env may hold a
// proxy's credentials).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

// The lines gpudoctor reads of GET /config's body, BurntSushi/toml's encoding
// of crio's tomlConfig (one `key = value` per line, [a.b] headers, indented):
// [crio.runtime]'s default_runtime and each [crio.runtime.runtimes.NAME]'s
// runtime_path and runtime_type, under their headers. nullopt where the
// body has no [crio.runtime] table: not CRI-O's configuration.
std::optional<std::string> crio_config_lines(std::string_view body);

// args: SOCKET. Exit 0 with the lines on stdout; 1 with the reason on stderr.
int crio_config_child(const std::vector<std::string>& args);

}  // namespace gd
