#include "loader/loader_config.h"

#include "test_support/fake_host.h"

#include <doctest/doctest.h>

TEST_CASE("the host's loader: glibc on x86-64 with Debian's multiarch directories") {
  gd::FakeHost host;
  host.dir("/lib/x86_64-linux-gnu");
  const auto config = gd::detect_host_loader_config(host);
  CHECK(config.libc == gd::Libc::glibc);
  CHECK(config.machine == 62);
  CHECK(config.default_dirs.front() == "/lib/x86_64-linux-gnu");
  CHECK(config.cache_exact_flags == 0x0303);
  CHECK(config.hwcaps_apply);
}

TEST_CASE("the host's loader on aarch64 musl is aarch64's musl, not x86-64's") {
  gd::FakeHost host;
  host.kernel.machine = "aarch64";
  host.file("/lib/ld-musl-aarch64.so.1", "");
  host.file("/etc/ld-musl-aarch64.path", "/opt/lib:/usr/lib\n");
  const auto config = gd::detect_host_loader_config(host);
  CHECK(config.libc == gd::Libc::musl);
  CHECK(config.machine == 183);
  CHECK(config.default_dirs == std::vector<std::string>{"/opt/lib", "/usr/lib"});
  CHECK_FALSE(config.hwcaps_apply);
}

TEST_CASE("aarch64 glibc: its own triplet and cache flags") {
  gd::FakeHost host;
  host.kernel.machine = "aarch64";
  host.dir("/lib/aarch64-linux-gnu");
  const auto config = gd::detect_host_loader_config(host);
  CHECK(config.libc == gd::Libc::glibc);
  CHECK(config.default_dirs.front() == "/lib/aarch64-linux-gnu");
  CHECK(config.cache_exact_flags == 0x0a03);
}
