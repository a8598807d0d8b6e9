#pragma once
// The build information a Go program carries (Go 1.18 and later): its
// .go.buildinfo section, as `go version -m` and debug/buildinfo read it: the
// Go release, the main package's path, its module, the modules it was built
// from and the build's settings (-ldflags, where a program's own version is
// often set with -X). Read through the section headers, never the whole file.

#include "host/host.h"
#include "util/checked.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct GoModule {
  std::string path;     // "github.com/containerd/containerd/v2"
  std::string version;  // "v2.1.4", or "(devel)"; a replaced module's, its replacement's
  std::optional<std::string> replaced_by{};  // "=>": the module built in its place ("github.com/k3s-io/containerd")
};

struct GoBuildInfo {
  std::string go_version{};  // "go1.23.8"
  std::string main_path{};   // the main package: "github.com/containerd/containerd/v2/cmd/containerd"
  std::optional<GoModule> main_module{};
  std::vector<GoModule> dependencies{};
  std::vector<std::pair<std::string, std::string>> settings{};  // "-ldflags", "CGO_ENABLED", ...

  std::optional<std::string> setting(std::string_view key) const;
  // The value a -X flag of the build's -ldflags gives the variable ("github.com/x/version.Version").
  std::optional<std::string> linker_value(std::string_view variable) const;
};

// The section's bytes as the linker wrote them. A program of Go before 1.18
// keeps pointers there instead of the strings: a problem, as for a damaged section.
Checked<GoBuildInfo> parse_go_buildinfo(std::string_view section);

// The build information of the program at path; a problem where it is not a
// Go program, has no section headers, or the section is damaged or past 1 MiB.
Checked<GoBuildInfo> read_go_buildinfo(Files& files, const std::string& path);

}  // namespace gd
