#include "host/host_paths.h"

#include "host/path_walk.h"
#include "util/text.h"


namespace gd {

std::string real_path(Host& host, const std::string& path) {
  auto walked = walk_path(path, FollowFinal::yes, [&host](const WalkStep& step) -> Result<std::optional<std::string>> {
    auto target = host.read_link(step.logical);
    return target ? std::optional<std::string>(*target) : std::nullopt;
  });
  return walked ? *walked : path;  // a symlink loop: keep the path as given
}

std::optional<std::string> find_on_path(Host& host, const std::string& program) {
  // Held in a named string: split() returns views into it.
  const std::string path = host.env("PATH").value_or(std::string(k_service_path));
  return find_on_path(host, program, path);
}

std::optional<std::string> find_on_path(Host& host, const std::string& program, std::string_view search_path) {
  for (auto dir : split(search_path, ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    const std::string candidate = std::string(dir) + "/" + program;
    if (auto info = host.stat(candidate); info && info->type == FileType::regular) return candidate;
  }
  return std::nullopt;
}

std::optional<std::string> user_config_dir(Host& host) {
  if (auto xdg = host.env("XDG_CONFIG_HOME"); xdg && xdg->starts_with("/")) return *xdg;
  if (auto home = host.env("HOME"); home && home->starts_with("/") && *home != "/") return *home + "/.config";
  return std::nullopt;
}

}  // namespace gd
