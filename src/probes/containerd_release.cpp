#include "probes/containerd_release.h"

#include "formats/go_buildinfo.h"
#include "host/host_paths.h"
#include "probes/service_settings.h"
#include "probes/systemd_units.h"
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

std::vector<ContainerdInstall> containerd_installs(Host& host) {
  ContainerdInstall own{.config = "/etc/containerd/config.toml", .program = {}, .search_path = std::string(k_service_path), .unit = {}};
  const auto unit = find_systemd_unit(host, "containerd.service");
  if (unit.path && !unit.masked) {
    const auto service = read_service_settings(host, "containerd.service", unit);
    const auto command = service.command_line();
    if (!command.empty() && command.front().starts_with('/')) own.program = command.front();
    // A relative path is the service's working directory's: systemd's default for a system service is /.
    if (auto config = go_flag_value(command, {"config", "c"}); config && !config->empty())
      own.config = config->starts_with('/') ? std::move(*config) : "/" + *config;
    if (auto address = go_flag_value(command, {"address", "a"}); address && !address->empty()) own.address = std::move(*address);
    own.search_path = service.search_path();
    own.unit = unit.path;
  }
  std::vector<ContainerdInstall> installs{std::move(own)};
  // k3s and rke2 start theirs with -a; microk8s's snap service with --address.
  constexpr std::string_view k3s_socket = "/run/k3s/containerd/containerd.sock";
  installs.push_back({"/var/lib/rancher/k3s/agent/etc/containerd/config.toml", "/var/lib/rancher/k3s/data/current/bin/containerd", {}, {}, std::string(k3s_socket)});
  installs.push_back({"/var/lib/rancher/rke2/agent/etc/containerd/config.toml", "/var/lib/rancher/rke2/bin/containerd", {}, {}, std::string(k3s_socket)});
  installs.push_back({"/var/snap/microk8s/current/args/containerd.toml", "/snap/microk8s/current/bin/containerd", {}, {},
                      "/var/snap/microk8s/common/run/containerd.sock"});
  return installs;
}

void read_containerd_release(Host& host, const ContainerdInstall& install, ContainerdEngineFacts& facts) {
  const auto program = !install.program             ? find_on_path(host, "containerd", install.search_path.value_or(""))
                       : host.exists(*install.program) ? install.program
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
