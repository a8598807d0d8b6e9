#pragma once
// /proc/self/mountinfo, one parser for the probes that read it (proc(5)):
// "id parent maj:min root mountpoint options [optional...] - fstype source superopts".

#include <string>
#include <string_view>
#include <vector>

namespace gd {

inline constexpr std::string_view k_self_mountinfo = "/proc/self/mountinfo";

struct MountEntry {
  std::string root;         // the path inside its source file system: what was mounted here
  std::string mount_point;  // where
  std::string fstype;
  std::string source;       // the device or name after the fstype: /dev/vda, overlay, tmpfs
  std::string options;      // the mount's own options: rw,nosuid,nodev,relatime
};

// Lines too short to be mount entries are skipped.
std::vector<MountEntry> parse_mountinfo(std::string_view text);

// The mount a path lies on: the last entry (the one mounted on top) whose
// mount point is the path or one of its parent directories; nothing where
// none is. The path is taken as written, symbolic links not followed.
const MountEntry* mount_of(const std::vector<MountEntry>& mounts, std::string_view path);

// Whether a mount's own options hold one (`nodev`), as a whole word.
bool has_mount_option(const MountEntry& mount, std::string_view option);

}  // namespace gd
