#include "probes/containerd_release.h"

#include "formats/go_buildinfo.h"
#include "host/host_paths.h"
#include "util/text.h"

namespace gd {
namespace {

constexpr std::string_view k_module_1 = "github.com/containerd/containerd";
constexpr std::string_view k_module_2 = "github.com/containerd/containerd/v2";

// The major release of a package path or module path inside containerd's
// modules ("github.com/containerd/containerd/api" is a module of its own, which 2.x uses too).
std::optional<std::int64_t> major_of_package(std::string_view path) {
  if (path == k_module_2 || path.starts_with(concat({k_module_2, "/"}))) return 2;
  if (path == k_module_1 || path.starts_with(concat({k_module_1, "/cmd/"}))) return 1;
  return std::nullopt;
}

// containerd itself (its main package), else the containerd module a program
// such as k3s builds in, 2.x first: it may also pull in 1.x's for a client.
std::optional<std::pair<std::int64_t, const GoModule*>> containerd_of(const GoBuildInfo& info) {
  if (auto major = major_of_package(info.main_path)) return std::pair{*major, info.main_module ? &*info.main_module : nullptr};
  for (const auto module : {k_module_2, k_module_1})
    for (const auto& dependency : info.dependencies)
      if (dependency.path == module) return std::pair{module == k_module_2 ? std::int64_t{2} : std::int64_t{1}, &dependency};
  return std::nullopt;
}

}  // namespace

void read_containerd_release(Host& host, const ContainerdInstall& install, ContainerdEngineFacts& facts) {
  const auto program = !install.program                ? find_on_path(host, "containerd", k_service_path)
                       : host.exists(install.program) ? std::optional<std::string>(install.program)
                                                      : std::nullopt;
  if (!program) return;
  facts.program = printable(*program, 200);
  const auto info = read_go_buildinfo(host, *program);
  if (!info) return;
  const auto containerd = containerd_of(*info);
  if (!containerd) return;
  facts.major = containerd->first;
  // The version containerd's Makefile sets with -X, else the module's own where it is not a development build.
  auto release = info->linker_value(concat({containerd->first == 2 ? k_module_2 : k_module_1, "/version.Version"}));
  if (!release && containerd->second && containerd->second->version != "(devel)" && !containerd->second->version.empty())
    release = containerd->second->version;
  if (release) facts.release = printable(*release, 60);
}

}  // namespace gd
