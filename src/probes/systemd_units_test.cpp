#include "probes/systemd_units.h"

#include "probes/service_settings.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("a systemd unit: the first unit directory holding it (/lib before /usr/lib, as split-usr Debian), enabled by a wants link in /etc or a preset's in /usr/lib") {
  gd::FakeHost host;
  host.file("/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n");
  auto unit = gd::find_systemd_unit(host, "nvidia-fabricmanager.service");
  CHECK(unit.path == "/lib/systemd/system/nvidia-fabricmanager.service");
  CHECK_FALSE(unit.enabled);
  host.file("/usr/local/lib/systemd/system/nvidia-fabricmanager.service", "[Service]\n");
  host.link("/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service", "/usr/local/lib/systemd/system/nvidia-fabricmanager.service");
  unit = gd::find_systemd_unit(host, "nvidia-fabricmanager.service");
  CHECK(unit.path == "/usr/local/lib/systemd/system/nvidia-fabricmanager.service");
  CHECK(unit.enabled);
  CHECK_FALSE(unit.masked);
  host.file("/usr/lib/systemd/system/multi-user.target.wants/nvidia-cdi-refresh.path", "");
  CHECK_FALSE(gd::find_systemd_unit(host, "nvidia-cdi-refresh.path").enabled);  // a wants link to no unit file starts nothing
  host.file("/usr/lib/systemd/system/nvidia-cdi-refresh.path", "[Path]\n");
  CHECK(gd::find_systemd_unit(host, "nvidia-cdi-refresh.path").enabled);
  CHECK_FALSE(gd::find_systemd_unit(host, "no-such.service").path);
}

TEST_CASE("a masked unit: a link to /dev/null before the unit file; never enabled, its unit file still named") {
  gd::FakeHost host;
  host.file("/lib/systemd/system/docker.service", "[Service]\nExecStart=/usr/bin/dockerd\n");
  host.link("/etc/systemd/system/multi-user.target.wants/docker.service", "/lib/systemd/system/docker.service");
  CHECK(gd::find_systemd_unit(host, "docker.service").enabled);
  host.link("/etc/systemd/system/docker.service", "/dev/null");
  auto unit = gd::find_systemd_unit(host, "docker.service");
  CHECK(unit.masked);
  CHECK_FALSE(unit.enabled);
  CHECK(unit.path == "/lib/systemd/system/docker.service");
  CHECK(gd::read_service_settings(host, "docker.service").command_words().empty());
  host.link("/run/systemd/system/containerd.service", "/dev/null");  // systemctl mask --runtime
  host.file("/usr/lib/systemd/system/containerd.service", "[Service]\n");
  CHECK(gd::find_systemd_unit(host, "containerd.service").masked);
  host.file("/etc/systemd/system/containerd.service", "[Service]\n");  // a unit file before the mask: not masked
  CHECK_FALSE(gd::find_systemd_unit(host, "containerd.service").masked);
  host.link("/run/systemd/system/multi-user.target.wants/containerd.service", "/etc/systemd/system/containerd.service");  // systemctl enable --runtime
  CHECK(gd::find_systemd_unit(host, "containerd.service").enabled);
}
