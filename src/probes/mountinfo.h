#pragma once
// /proc/self/mountinfo, one parser for the probes that read it (proc(5)):
// "id parent maj:min root mountpoint options [optional...] - fstype source superopts".

#include <string>
#include <string_view>
#include <vector>

namespace gd {

struct MountEntry {
  std::string root;         // the path inside its source file system: what was mounted here
  std::string mount_point;  // where
  std::string fstype;
  std::string source;       // the device or name after the fstype: /dev/vda, overlay, tmpfs
};

// Lines too short to be mount entries are skipped.
std::vector<MountEntry> parse_mountinfo(std::string_view text);

}  // namespace gd
