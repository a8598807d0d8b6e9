#include "host/path_chase.h"

#include "host/local_fs.h"
#include "util/text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace gd {

Result<std::string> chase(const std::string& root_dir, std::string_view path, FollowFinal follow_final,
                          CreateDirs create_dirs) {
  std::string root = root_dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (root == "/") root.clear();
  auto walked = walk_path(path, follow_final, [&](const std::string& logical, bool is_final) -> Result<std::optional<std::string>> {
    const std::string local = root + logical;
    struct stat info {};
    if (::lstat(local.c_str(), &info) != 0) {
      // A missing final component is the caller's to report.
      if (errno == ENOENT && (is_final || (create_dirs == CreateDirs::yes && ::mkdir(local.c_str(), 0755) == 0)))
        return std::optional<std::string>();
      return errno_code(errno);
    }
    if (!S_ISLNK(info.st_mode)) return std::optional<std::string>();
    auto target = read_local_link(local);
    if (!target) return target.error();
    return std::optional<std::string>(*target);
  });
  if (!walked) return walked.error();
  return root + (*walked == "/" ? std::string() : *walked);
}

}  // namespace gd
