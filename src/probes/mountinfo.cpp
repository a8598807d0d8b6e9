#include "probes/mountinfo.h"

#include "util/text.h"

namespace gd {

std::vector<MountEntry> parse_mountinfo(std::string_view text) {
  std::vector<MountEntry> mounts;
  for (auto line : lines(text)) {
    const auto fields = split(line, ' ');
    if (fields.size() < 5) continue;
    MountEntry entry{std::string(fields[3]), std::string(fields[4]), {}, {}, std::string(fields.size() > 5 ? fields[5] : "")};
    for (std::size_t i = 6; i + 1 < fields.size(); ++i)
      if (fields[i] == "-") {
        entry.fstype = std::string(fields[i + 1]);
        if (i + 2 < fields.size()) entry.source = std::string(fields[i + 2]);
        break;
      }
    mounts.push_back(std::move(entry));
  }
  return mounts;
}

const MountEntry* mount_of(const std::vector<MountEntry>& mounts, std::string_view path) {
  const MountEntry* found = nullptr;
  for (const auto& mount : mounts) {
    const std::string_view point = mount.mount_point;
    const bool covers = point == "/" || path == point || (path.starts_with(point) && path.size() > point.size() && path[point.size()] == '/');
    // The later of two mounts on one point hides the earlier; a deeper point covers less.
    if (covers && (!found || point.size() >= found->mount_point.size())) found = &mount;
  }
  return found;
}

bool has_mount_option(const MountEntry& mount, std::string_view option) {
  for (const auto word : split(mount.options, ','))
    if (word == option) return true;
  return false;
}

}  // namespace gd
