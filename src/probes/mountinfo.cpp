#include "probes/mountinfo.h"

#include "util/text.h"

namespace gd {

std::vector<MountEntry> parse_mountinfo(std::string_view text) {
  std::vector<MountEntry> mounts;
  for (auto line : lines(text)) {
    const auto fields = split(line, ' ');
    if (fields.size() < 5) continue;
    MountEntry entry{std::string(fields[3]), std::string(fields[4]), {}, {}};
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

}  // namespace gd
