#include "probes/container_probe.h"

#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("container: runtime, injection and the toolkit's variables") {
  gd::ProbeFixture f;
  f.host.file("/.dockerenv", "");
  f.host.env_var("NVIDIA_VISIBLE_DEVICES", "all").env_var("NVIDIA_DRIVER_CAPABILITIES", "utility");
  f.host.file("/proc/self/mountinfo", "1 0 0:1 / /proc/driver/nvidia rw - tmpfs tmpfs rw\n");
  f.host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0666, 0, 0, {}, {}};
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK(layer.facts.in_container);
  CHECK(*layer.facts.runtime == gd::ContainerRuntime::docker);
  CHECK(layer.facts.injection == gd::Injection::legacy);
  CHECK(layer.facts.gpu_requested);
  CHECK(layer.facts.gpu_nodes_present == true);
  CHECK(layer.facts.driver_capabilities.effective == std::vector<std::string>{"utility"});
}

TEST_CASE("container: on a host the layer is skip, and the variables are still read") {
  gd::ProbeFixture f;
  f.host.env_var("NVIDIA_VISIBLE_DEVICES", "void");
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK_FALSE(layer.facts.in_container);
  CHECK(layer.status == gd::Status::skip);
  CHECK(layer.facts.visible_devices.mode == gd::VisibleMode::void_);
  CHECK_FALSE(layer.facts.injection);
}

TEST_CASE("container: Apptainer by its variables or /.singularity.d; --nv's binds are an injection of their own") {
  gd::ProbeFixture f;
  f.host.dir("/.singularity.d");
  f.host.file("/.singularity.d/libs/libcuda.so.1", "").file("/.singularity.d/libs/libnvidia-ml.so.1", "");
  f.host.env_var("APPTAINER_CONTAINER", "/home/u/torch.sif").env_var("LD_LIBRARY_PATH", "/opt/lib:/.singularity.d/libs");
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK(*layer.facts.runtime == gd::ContainerRuntime::apptainer);
  CHECK(layer.facts.injection == gd::Injection::apptainer_nv);
  CHECK(*layer.facts.apptainer_libs == std::vector<std::string>{"libcuda.so.1", "libnvidia-ml.so.1"});
  CHECK(*layer.facts.apptainer_libs_on_path);
}

TEST_CASE("container: LXD by /dev/.lxd-mounts, LXC by PID 1's container=lxc") {
  SUBCASE("lxd") {
    gd::ProbeFixture f;
    f.host.dir("/dev/.lxd-mounts");
    auto context = f.context();
    const auto layer = gd::probe_container(context);
    CHECK(*layer.facts.runtime == gd::ContainerRuntime::lxd);
  }
  SUBCASE("lxc") {
    gd::ProbeFixture f;
    f.host.file("/proc/1/environ", std::string("PATH=/bin\0container=lxc\0", 25));
    auto context = f.context();
    const auto layer = gd::probe_container(context);
    CHECK(*layer.facts.runtime == gd::ContainerRuntime::lxc);
    CHECK(layer.facts.markers.back() == "PID 1's environment: container=lxc");
  }
}

TEST_CASE("container: a user namespace from /proc/self/uid_map, rootless podman from /run/.containerenv") {
  gd::ProbeFixture f;
  f.host.file("/run/.containerenv", "engine=\"podman-4.9.3\"\nrootless=1\n");
  f.host.file("/proc/self/uid_map", "         0       1000          1\n         1     100000      65536\n");
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK(*layer.facts.runtime == gd::ContainerRuntime::podman);
  CHECK(*layer.facts.user_namespace);
  CHECK(*layer.facts.uid_map == "0 1000 1");
  CHECK(*layer.facts.rootless);
  gd::ProbeFixture rootful;  // a rootful container: the whole id range, no user namespace
  rootful.host.file("/.dockerenv", "").file("/proc/self/uid_map", "         0          0 4294967295\n");
  auto rootful_context = rootful.context();
  const auto plain = gd::probe_container(rootful_context);
  REQUIRE(plain.facts.user_namespace.has_value());
  CHECK_FALSE(*plain.facts.user_namespace);
}

TEST_CASE("container: /.dockerenv alone is outweighed where / is a disk's own file system; with an engine's root it stands") {
  const auto with_root = [](const char* mountinfo, bool cgroup) {
    gd::ProbeFixture f;
    f.host.file("/.dockerenv", "");
    f.host.file("/proc/self/mountinfo", mountinfo);
    if (cgroup) f.host.file("/proc/self/cgroup", "0::/system.slice/docker-4f1c.scope\n");
    auto context = f.context();
    return gd::probe_container(context);
  };
  SUBCASE("a VM booted from a CUDA image: ext4 on /dev/vda is /") {
    const auto layer = with_root("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n24 27 0:6 / /dev rw - devtmpfs devtmpfs rw\n", false);
    CHECK_FALSE(layer.facts.in_container);
    CHECK(layer.facts.discounted_markers == std::vector<std::string>{"/.dockerenv"});
    CHECK(layer.facts.own_root == "/ is ext4 from /dev/vda, the whole file system of a disk");
    CHECK(layer.summary.find("/.dockerenv is there, but") != std::string::npos);
  }
  SUBCASE("docker's overlay root: a container") {
    const auto layer = with_root("1071 1000 0:62 / / rw - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A\n", false);
    CHECK(layer.facts.in_container);
    CHECK(layer.facts.discounted_markers.empty());
  }
  SUBCASE("a subvolume or directory of a disk (btrfs driver, LXC's dir backend): a container") {
    const auto layer = with_root("40 1 0:35 /var/lib/docker/btrfs/subvolumes/9a / rw - btrfs /dev/sda2 rw\n", false);
    CHECK(layer.facts.in_container);
  }
  SUBCASE("a second marker (the cgroup) keeps the container, whatever / is") {
    const auto layer = with_root("27 1 254:0 / / rw - ext4 /dev/vda rw\n", true);
    CHECK(layer.facts.in_container);
    CHECK(*layer.facts.runtime == gd::ContainerRuntime::docker);
  }
  SUBCASE("mountinfo unreadable: the marker stands") {
    gd::ProbeFixture f;
    f.host.file("/.dockerenv", "");
    auto context = f.context();
    CHECK(gd::probe_container(context).facts.in_container);
  }
}

TEST_CASE("container: an engine's file that was not read gives the summary no defaults to print") {
  auto summary_with = [](bool readable) {
    gd::ProbeFixture f;
    f.host.file("/usr/bin/dockerd", "");
    f.host.file("/etc/nvidia-container-runtime/config.toml", "[nvidia-container-runtime]\nmode = \"cdi\"\n");
    if (readable)
      f.host.file("/etc/docker/daemon.json", "{\"default-runtime\": \"runc\"}");
    else
      f.host.link("/etc/docker/daemon.json", "/etc/docker/daemon.json");
    auto context = f.context();
    return gd::probe_container(context).summary;
  };
  CHECK(summary_with(true).ends_with("; Docker (default runtime runc), NVIDIA Container Toolkit (mode cdi)"));
  CHECK(summary_with(false).ends_with("; Docker (daemon.json not read), NVIDIA Container Toolkit (mode cdi)"));
}
