#include "probes/systemd_units.h"

#include "util/text.h"

namespace gd {
namespace {

enum class UnitFile { absent, mask, unit };

// `systemctl mask` links the unit's name to /dev/null. The link is read
// before the file is looked at: a snapshot then keeps the link, where a stat
// would follow it and keep an empty file in /dev/null's place. stat(2)
// finding a character device catches a mask linked some other way.
// systemd.unit(5) says an empty unit file masks too; that is not counted
// here, because a snapshot keeps a file gpudoctor only looked at as an empty one.
UnitFile unit_file(Host& host, const std::string& path) {
  if (const auto target = host.read_link(path); target && *target == "/dev/null") return UnitFile::mask;
  const auto stat = host.stat(path);
  if (!stat) return UnitFile::absent;
  return stat->type == FileType::char_device ? UnitFile::mask : UnitFile::unit;
}

}  // namespace

SystemdUnit find_systemd_unit(Host& host, std::string_view name) {
  SystemdUnit unit;
  bool decided = false;  // the first file found decides masked; the path is the first real one either way
  for (const char* dir : k_systemd_unit_dirs) {
    std::string path = concat({dir, "/", name});
    const auto file = unit_file(host, path);
    if (file == UnitFile::absent) continue;
    if (!decided) unit.masked = file == UnitFile::mask;
    decided = true;
    if (file == UnitFile::unit) {
      unit.path = std::move(path);
      break;
    }
  }
  if (unit.masked || !unit.path) return unit;  // a wants link to no unit file starts nothing
  // `systemctl enable` links it into /etc (`--runtime` into /run); a distribution's preset may ship the link below /usr/lib.
  // A socket is wanted by sockets.target, the rest of what gpudoctor asks for by multi-user.target.
  const std::string_view wants = name.ends_with(".socket") ? "sockets.target.wants/" : "multi-user.target.wants/";
  for (const char* dir : k_systemd_unit_dirs)
    unit.enabled = unit.enabled || host.exists(concat({dir, "/", wants, name}));
  return unit;
}

}  // namespace gd
