#include "host/host_paths.h"

#include "host/path_walk.h"


namespace gd {

std::string real_path(Host& host, const std::string& path) {
  auto walked = walk_path(path, FollowFinal::yes, [&host](const std::string& logical, bool) -> Result<std::optional<std::string>> {
    auto target = host.read_link(logical);
    return target ? std::optional<std::string>(*target) : std::nullopt;
  });
  return walked ? *walked : path;  // a symlink loop: keep the path as given
}

}  // namespace gd
