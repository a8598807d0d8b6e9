#include "formats/go_buildinfo.h"

#include "test_support/binary_writer.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("Go build information: the main package, its module, replaced dependencies and the build's settings") {
  gd::FakeHost host;
  // As containerd's Makefile builds it: the version set by -X, the value quoted because it has spaces.
  host.file("/usr/bin/containerd",
            gd::go_program("go1.23.8",
                           "path\tgithub.com/containerd/containerd/v2/cmd/containerd\n"
                           "mod\tgithub.com/containerd/containerd/v2\t(devel)\t\n"
                           "dep\tgithub.com/containerd/cgroups/v3\tv3.0.5\th1:abc=\n"
                           "dep\tgithub.com/containerd/ttrpc\tv1.2.7\th1:def=\n"
                           "=>\tgithub.com/k3s-io/ttrpc\tv1.2.7-k3s1\th1:ghi=\n"
                           "build\t-buildmode=exe\n"
                           "build\t-ldflags=\"-s -w -X github.com/containerd/containerd/v2/version.Version=v2.1.4 "
                           "-X=github.com/containerd/containerd/v2/version.Revision=75cb2b7\"\n"
                           "build\tCGO_ENABLED=1\n"));
  const auto info = gd::read_go_buildinfo(host, "/usr/bin/containerd");
  REQUIRE(info);
  CHECK(info->go_version == "go1.23.8");
  CHECK(info->main_path == "github.com/containerd/containerd/v2/cmd/containerd");
  REQUIRE(info->main_module);
  CHECK(info->main_module->path == "github.com/containerd/containerd/v2");
  CHECK(info->main_module->version == "(devel)");
  REQUIRE(info->dependencies.size() == 2);
  CHECK(info->dependencies[1].path == "github.com/containerd/ttrpc");  // the module, built from its replacement
  CHECK(info->dependencies[1].replaced_by == "github.com/k3s-io/ttrpc");
  CHECK(info->dependencies[1].version == "v1.2.7-k3s1");
  CHECK_FALSE(info->dependencies[0].replaced_by);
  CHECK(info->setting("CGO_ENABLED") == "1");
  CHECK(info->setting("-buildmode") == "exe");
  CHECK(info->linker_value("github.com/containerd/containerd/v2/version.Version") == "v2.1.4");
  CHECK(info->linker_value("github.com/containerd/containerd/v2/version.Revision") == "75cb2b7");
  CHECK_FALSE(info->linker_value("github.com/containerd/containerd/v2/version"));  // a prefix is not the variable
  CHECK_FALSE(info->setting("GOOS"));
}

TEST_CASE("Go build information: a distribution's GOPATH build has the package path and no module") {
  // Debian 12's containerd 1.6.20 (dh-golang): no mod line, no -ldflags recorded.
  gd::FakeHost host;
  host.file("/usr/bin/containerd", gd::go_program("go1.19.8",
                                                  "path\tgithub.com/containerd/containerd/cmd/containerd\n"
                                                  "build\t-compiler=gc\nbuild\t-trimpath=true\nbuild\tCGO_ENABLED=1\n"));
  const auto info = gd::read_go_buildinfo(host, "/usr/bin/containerd");
  REQUIRE(info);
  CHECK(info->main_path == "github.com/containerd/containerd/cmd/containerd");
  CHECK_FALSE(info->main_module);
  CHECK(info->setting("-trimpath") == "true");
  CHECK_FALSE(info->linker_value("github.com/containerd/containerd/version.Version"));
}

TEST_CASE("Go build information: what is not there or damaged is a problem, never a guess") {
  gd::FakeHost host;
  host.file("/bin/old", gd::go_program("go1.16", "path\tx\n", true));
  host.file("/bin/c", gd::tiny_elf({.soname = "libc.so.6"}));
  host.file("/bin/text", "#!/bin/sh\nexec containerd \"$@\"\n");
  CHECK(gd::read_go_buildinfo(host, "/bin/old").error().find("before Go 1.18") != std::string::npos);
  CHECK(gd::read_go_buildinfo(host, "/bin/c").error().find("no .go.buildinfo section") != std::string::npos);
  CHECK_FALSE(gd::read_go_buildinfo(host, "/bin/text"));
  CHECK_FALSE(gd::read_go_buildinfo(host, "/bin/missing"));

  // The section itself cut at every length: a problem or the strings it still holds, never past its end.
  const std::string whole = gd::go_program("go1.22.1", "path\tgithub.com/containerd/containerd/cmd/containerd\n");
  const std::size_t start = 64;  // the section follows the ELF header
  const std::string section = whole.substr(start, whole.find(std::string("\0.go.buildinfo", 14)) - start);
  REQUIRE(gd::parse_go_buildinfo(section));
  for (std::size_t length = 0; length < section.size(); ++length) {
    const auto cut = gd::parse_go_buildinfo(section.substr(0, length));
    CHECK_FALSE(cut);
  }
  // A length that claims more than there is.
  std::string lying = section;
  lying[32] = '\x7f';
  CHECK_FALSE(gd::parse_go_buildinfo(lying.substr(0, 60)));
  // Module information without its frame (a program built outside any module) gives the release alone.
  std::string unframed = section;
  const auto framed_at = unframed.find("0w");
  REQUIRE(framed_at != std::string::npos);
  unframed[unframed.size() - 17] = 'x';
  const auto bare = gd::parse_go_buildinfo(unframed);
  REQUIRE(bare);
  CHECK(bare->go_version == "go1.22.1");
  CHECK(bare->main_path.empty());
}
