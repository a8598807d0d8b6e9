#include "platforms/container_engine.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

#include <set>

namespace {

gd::EngineDetection detect(gd::FakeHost& host) { return gd::detect_container_engines(host); }

}  // namespace

TEST_CASE("engine table: every engine has a name of its own and a detector") {
  std::set<std::string_view> names;
  for (const gd::EngineMethod* engine : gd::container_engines()) {
    REQUIRE(engine != nullptr);
    CHECK(static_cast<bool>(engine->detect));
    CHECK(names.insert(engine->name).second);
  }
  CHECK(names.size() >= 8);
}

TEST_CASE("engine table: no marker, no engine") {
  gd::FakeHost host;
  host.file("/proc/self/cgroup", "0::/user.slice/user-1000.slice/session-2.scope\n");
  const auto found = detect(host);
  CHECK(found.markers.empty());
  CHECK(found.found.empty());
}

TEST_CASE("engine table: the strongest marker names the engine, whatever the table's order") {
  SUBCASE("PID 1's container= outweighs the kubelet's variable") {
    gd::FakeHost host;
    host.file("/proc/1/environ", std::string("container=lxc\0", 14));
    host.env_var("KUBERNETES_SERVICE_HOST", "10.0.0.1");
    const auto found = detect(host);
    REQUIRE(found.markers.size() == 2);
    CHECK(found.markers[0].engine == gd::ContainerRuntime::lxc);
    CHECK(found.markers[1].engine == gd::ContainerRuntime::kubernetes);
  }
  SUBCASE("Docker nested in an LXC container: the inner engine's cgroup name wins") {
    gd::FakeHost host;
    host.file("/proc/self/cgroup", "0::/lxc.payload.box/system.slice/docker-4f1e.scope\n");
    const auto found = detect(host);
    REQUIRE(found.markers.size() == 2);
    CHECK(found.markers[0].engine == gd::ContainerRuntime::docker);
    CHECK(found.markers[1].strength == gd::MarkerStrength::outer_cgroup);
  }
  SUBCASE("podman's file before the Docker file an image may keep") {
    gd::FakeHost host;
    host.file("/.dockerenv", "").file("/run/.containerenv", "");
    const auto found = detect(host);
    REQUIRE(found.markers.size() == 2);
    CHECK(found.markers[0].engine == gd::ContainerRuntime::podman);
    CHECK(found.markers[1].strength == gd::MarkerStrength::image_file);
    CHECK(found.found.size() == 2);
  }
}

TEST_CASE("engine table: container= of a manager no engine file knows is other, with its name") {
  gd::FakeHost host;
  host.file("/proc/1/environ", std::string("container=systemd-nspawn\0", 25));
  const auto found = detect(host);
  REQUIRE(found.markers.size() == 1);
  CHECK(found.markers[0].engine == gd::ContainerRuntime::other);
  CHECK(found.markers[0].named == "systemd-nspawn");
  SUBCASE("a hostile name is escaped and cut") {
    gd::FakeHost hostile;
    hostile.env_var("container", std::string(200, 'x') + "\x1b[31m");
    const auto marker = detect(hostile).markers.at(0);
    CHECK(marker.engine == gd::ContainerRuntime::other);
    CHECK(marker.named->size() <= 43);
    CHECK(marker.named->find('\x1b') == std::string::npos);
  }
  SUBCASE("the name other is no engine either") {
    gd::FakeHost other;
    other.env_var("container", "other");
    CHECK(detect(other).markers.at(0).named == "other");
  }
}
