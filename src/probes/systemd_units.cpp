#include "probes/systemd_units.h"

namespace gd {

SystemdUnit find_systemd_unit(Host& host, std::string_view name) {
  SystemdUnit unit;
  for (const char* dir : {"/etc/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"})
    if (std::string path = std::string(dir) + "/" + std::string(name); host.exists(path)) {
      unit.path = std::move(path);
      break;
    }
  // `systemctl enable` links it into /etc; a distribution's preset may ship the link below /usr/lib.
  // A socket is wanted by sockets.target, the rest of what gpudoctor asks for by multi-user.target.
  const std::string wants = name.ends_with(".socket") ? "sockets.target.wants/" : "multi-user.target.wants/";
  for (const char* dir : {"/etc/systemd/system/", "/usr/lib/systemd/system/"})
    unit.enabled = unit.enabled || host.exists(std::string(dir) + wants + std::string(name));
  return unit;
}

}  // namespace gd
