#include "probes/systemd_units.h"

#include "util/text.h"

namespace gd {
namespace {

enum class UnitFile { absent, mask, unit };

// `systemctl mask` links the unit's name to /dev/null: live, stat(2) finds
// that character device; below --root or in a snapshot the link's target is
// not there, and the link itself says so. systemd.unit(5) says an empty unit
// file masks too; that is not counted here, because a snapshot keeps a file
// gpudoctor only looked at as an empty one.
UnitFile unit_file(Host& host, const std::string& path) {
  if (const auto stat = host.stat(path)) return stat->type == FileType::char_device ? UnitFile::mask : UnitFile::unit;
  const auto target = host.read_link(path);
  return target && *target == "/dev/null" ? UnitFile::mask : UnitFile::absent;
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
