#include "platforms/machine_platform.h"

#include "test_support/fake_host.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <set>

namespace {

gd::PlatformDetection detect(gd::FakeHost& host) { return gd::detect_machine_platform(host, host.kernel.release); }

}  // namespace

TEST_CASE("platform table: every platform once, each with a detector, plain Linux in none") {
  std::set<gd::Platform> platforms;
  for (const gd::PlatformMethod* method : gd::machine_platforms()) {
    REQUIRE(method != nullptr);
    CHECK(static_cast<bool>(method->detect));
    CHECK(platforms.insert(method->platform).second);
  }
  CHECK(platforms.count(gd::Platform::native_linux) == 0);
  CHECK(platforms.size() + 1 == gd::EnumTable<gd::Platform>::names.size());
}

TEST_CASE("platform table: each platform's method says how its GPU is reached; plain Linux is the machine's own") {
  for (const gd::PlatformMethod* method : gd::machine_platforms()) CHECK(&gd::platform_method(method->platform) == method);
  const auto& plain = gd::platform_method(gd::Platform::native_linux);
  CHECK(plain.platform == gd::Platform::native_linux);
  CHECK(plain.own_kernel);
  CHECK(plain.pci_hidden == nullptr);
  CHECK(plain.module_elsewhere == nullptr);
  CHECK(plain.nodes == gd::NodesExpected::where_loaded);
  gd::FakeHost anything;
  CHECK_FALSE(plain.detect({anything, "6.1.0"}));
  // Only plain Linux has a kernel of its own to read the nvidia module, its log and its firmware in.
  for (const gd::PlatformMethod* method : gd::machine_platforms()) CHECK_FALSE(method->own_kernel);
  const auto& wsl2 = gd::platform_method(gd::Platform::wsl2);
  CHECK(wsl2.through_dxg);
  CHECK(wsl2.nodes == gd::NodesExpected::never);
  CHECK(gd::contains(wsl2.pci_hidden, "/dev/dxg"));
  const auto& gvisor = gd::platform_method(gd::Platform::gvisor);
  CHECK(gvisor.nodes == gd::NodesExpected::always);  // nvproxy forwards them
  CHECK(gd::contains(gvisor.module_elsewhere, "nvproxy"));
  const auto& wsl1 = gd::platform_method(gd::Platform::wsl1);
  CHECK_FALSE(wsl1.through_dxg);
  CHECK(wsl1.pci_hidden == nullptr);
}

TEST_CASE("platform table: what no platform claims is plain Linux, with no evidence") {
  gd::FakeHost host;
  host.dir("/sys/module/nvidia").file("/proc/driver/nvidia/version", "NVRM version: ...").file("/proc/driver/nvidia/params", "");
  const auto found = detect(host);
  CHECK(found.platform == gd::Platform::native_linux);
  CHECK_FALSE(found.evidence);
}

TEST_CASE("platform table: WSL2 by its kernel's name or by /dev/dxg; WSL1 is Microsoft without either") {
  gd::FakeHost host;
  host.kernel.release = "5.15.153.1-microsoft-standard-WSL2";
  CHECK(detect(host).platform == gd::Platform::wsl2);
  CHECK(*detect(host).evidence == "uname -r names WSL2");

  host.kernel.release = "5.10.16.3-microsoft-standard";  // a custom WSL2 kernel: /dev/dxg decides
  CHECK(detect(host).platform == gd::Platform::wsl1);
  gd::DeviceNode dxg;
  dxg.type = gd::FileType::char_device;
  host.devices["/dev/dxg"] = dxg;
  CHECK(detect(host).platform == gd::Platform::wsl2);
  CHECK(gd::contains(*detect(host).evidence, "/dev/dxg"));

  gd::FakeHost wsl1;
  wsl1.kernel.release = "4.4.0-19041-Microsoft";
  CHECK(detect(wsl1).platform == gd::Platform::wsl1);
  CHECK(gd::contains(*detect(wsl1).evidence, "Microsoft"));
}

TEST_CASE("platform table: gVisor by its uname, or by its synthetic /proc where uname says Linux") {
  gd::FakeHost named;
  named.kernel.release = "4.4.0-gVisor";
  CHECK(detect(named).platform == gd::Platform::gvisor);

  gd::FakeHost synthetic;  // nvproxy: params only, and no modules at all
  synthetic.dir("/sys/module").file("/proc/driver/nvidia/params", "ModifyDeviceFiles: 0\n");
  CHECK(detect(synthetic).platform == gd::Platform::gvisor);
  CHECK(gd::contains(*detect(synthetic).evidence, "synthetic"));

  synthetic.file("/proc/driver/nvidia/version", "NVRM version: ...");  // a real driver's /proc
  CHECK(detect(synthetic).platform == gd::Platform::native_linux);
}
