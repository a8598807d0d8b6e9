#include "probes/containerd_release.h"

#include "host/host_paths.h"
#include "test_support/binary_writer.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

namespace {

gd::ContainerdEngineFacts release_of(gd::ProbeFixture& f, const gd::ContainerdInstall& install) {
  gd::ContainerdEngineFacts facts{.config = install.config};
  gd::read_containerd_release(f.host, install, facts);
  return facts;
}

}  // namespace

TEST_CASE("containerd's release: the module its main package is in, the version its build set") {
  {
    gd::ProbeFixture f;  // containerd 2.x as its Makefile builds it, found on the service PATH
    f.host.file("/usr/local/bin/containerd",
                gd::go_program("go1.23.8", "path\tgithub.com/containerd/containerd/v2/cmd/containerd\n"
                                           "mod\tgithub.com/containerd/containerd/v2\t(devel)\t\n"
                                           "dep\tgithub.com/containerd/containerd/api\tv1.9.0\th1:x=\n"
                                           "build\t-ldflags=\"-X github.com/containerd/containerd/v2/version.Version=v2.1.4 -s -w\"\n"));
    const auto facts = release_of(f, gd::containerd_installs(f.host)[0]);
    CHECK(facts.program == "/usr/local/bin/containerd");
    CHECK(facts.major == 2);
    CHECK(facts.release == "v2.1.4");
  }
  {
    gd::ProbeFixture f;  // Debian's 1.6 (GOPATH build: no module, no -ldflags recorded)
    f.host.file("/usr/bin/containerd", gd::go_program("go1.19.8", "path\tgithub.com/containerd/containerd/cmd/containerd\nbuild\t-trimpath=true\n"));
    const auto facts = release_of(f, gd::containerd_installs(f.host)[0]);
    CHECK(facts.major == 1);
    CHECK_FALSE(facts.release);
  }
  {
    gd::ProbeFixture f;  // k3s: containerd built into k3s's own program, from k3s's fork; 2.x wins over a 1.x client module
    const gd::ContainerdInstall k3s = gd::containerd_installs(f.host)[1];
    f.host.file(*k3s.program, gd::go_program("go1.23.6", "path\tgithub.com/k3s-io/k3s/cmd/server\n"
                                                        "mod\tgithub.com/k3s-io/k3s\t(devel)\t\n"
                                                        "dep\tgithub.com/containerd/containerd\tv1.7.24\th1:a=\n"
                                                        "dep\tgithub.com/containerd/containerd/v2\tv2.0.2\th1:b=\n"
                                                        "=>\tgithub.com/k3s-io/containerd/v2\tv2.0.2-k3s2\th1:c=\n"));
    const auto facts = release_of(f, k3s);
    CHECK(facts.major == 2);
    CHECK(facts.release == "v2.0.2-k3s2");
    CHECK(facts.program == k3s.program);
  }
  {
    gd::ProbeFixture f;  // not containerd's build information, a shell wrapper, no program: nothing said
    f.host.file("/usr/bin/containerd", gd::go_program("go1.22.1", "path\tgithub.com/example/other\n"));
    CHECK_FALSE(release_of(f, gd::containerd_installs(f.host)[0]).major);
    CHECK(release_of(f, gd::containerd_installs(f.host)[0]).program == "/usr/bin/containerd");
    gd::ProbeFixture wrapper;
    wrapper.host.file("/usr/bin/containerd", "#!/bin/sh\nexec /opt/containerd/bin/containerd \"$@\"\n");
    CHECK_FALSE(release_of(wrapper, gd::containerd_installs(wrapper.host)[0]).major);
    gd::ProbeFixture none;
    CHECK_FALSE(release_of(none, gd::containerd_installs(none.host)[0]).program);
  }
}

TEST_CASE("containerd's own install as containerd.service starts it: its --config, its program, its PATH; masked or absent: the defaults") {
  gd::ProbeFixture f;
  auto own = gd::containerd_installs(f.host)[0];
  CHECK(own.config == "/etc/containerd/config.toml");
  CHECK_FALSE(own.program);
  CHECK(own.search_path == gd::k_service_path);
  CHECK_FALSE(own.unit);
  // The release tarball's unit, as containerd's getting-started guide installs it, with a site's drop-in.
  f.host.file("/usr/local/lib/systemd/system/containerd.service", "[Service]\nExecStartPre=-/sbin/modprobe overlay\nExecStart=/usr/local/bin/containerd\n");
  f.host.file("/etc/systemd/system/containerd.service.d/10-site.conf",
              "[Service]\nEnvironment=PATH=/opt/nvidia/bin:/usr/local/bin:/usr/bin\nExecStart=\nExecStart=/usr/local/bin/containerd -c etc/containerd/site.toml\n");
  own = gd::containerd_installs(f.host)[0];
  CHECK(own.config == "/etc/containerd/site.toml");
  CHECK(own.program == "/usr/local/bin/containerd");
  CHECK(own.search_path == "/opt/nvidia/bin:/usr/local/bin:/usr/bin");
  CHECK(own.unit == "/usr/local/lib/systemd/system/containerd.service");
  f.host.link("/etc/systemd/system/containerd.service", "/dev/null");
  own = gd::containerd_installs(f.host)[0];
  CHECK(own.config == "/etc/containerd/config.toml");
  CHECK_FALSE(own.unit);
}
