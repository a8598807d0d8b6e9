#include "probes/systemd_units.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("a systemd unit: the first unit directory holding it, enabled by a wants link in /etc or a preset's in /usr/lib") {
  gd::FakeHost host;
  host.file("/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n");
  auto unit = gd::find_systemd_unit(host, "nvidia-fabricmanager.service");
  CHECK(unit.path == "/lib/systemd/system/nvidia-fabricmanager.service");
  CHECK_FALSE(unit.enabled);
  host.file("/usr/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n");
  host.link("/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service", "/usr/lib/systemd/system/nvidia-fabricmanager.service");
  unit = gd::find_systemd_unit(host, "nvidia-fabricmanager.service");
  CHECK(unit.path == "/usr/lib/systemd/system/nvidia-fabricmanager.service");
  CHECK(unit.enabled);
  host.file("/usr/lib/systemd/system/multi-user.target.wants/nvidia-cdi-refresh.path", "");
  CHECK(gd::find_systemd_unit(host, "nvidia-cdi-refresh.path").enabled);
  CHECK_FALSE(gd::find_systemd_unit(host, "no-such.service").path);
}
