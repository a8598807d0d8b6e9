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
  for (const char* wants : {"/etc/systemd/system/multi-user.target.wants", "/usr/lib/systemd/system/multi-user.target.wants"})
    unit.enabled = unit.enabled || host.exists(std::string(wants) + "/" + std::string(name));
  return unit;
}

}  // namespace gd
