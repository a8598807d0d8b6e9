#include "probes/kernel_module_probe.h"

#include "probes/hardware_probe.h"
#include "test_support/probe_fixture.h"

#include <doctest/doctest.h>

TEST_CASE("kernel-module: loaded module, version, claimed and unclaimed GPUs") {
  gd::ProbeFixture f;
  f.pci_gpu("0000:01:00.0", "2330", "nvidia");
  f.pci_gpu("0000:02:00.0", "2330", "nouveau");
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\nnouveau 1 0 - Live 0x0\nnvidia_peermem 1 0 - Live 0x0\n");
  f.host.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build\n");
  f.host.file("/proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \t\t NVIDIA H100\nDevice Minor: \t 0\nGPU UUID: \t GPU-1234\n");
  auto context = f.context();
  context.hardware = gd::probe_hardware(context).facts;
  const auto layer = gd::probe_kernel_module(context);
  CHECK(*layer.facts.loaded);
  CHECK(*layer.facts.modules.nouveau);
  CHECK_FALSE(*layer.facts.modules.nvidia_uvm);
  CHECK(*layer.facts.modules.nvidia_peermem);  // GPUDirect modules are facts
  CHECK_FALSE(*layer.facts.modules.nvidia_fs);
  CHECK(layer.facts.version == "550.54.15");
  CHECK(layer.facts.flavour == gd::ModuleFlavour::open);
  CHECK(layer.facts.driver_cuda == "12.4");
  REQUIRE(layer.facts.claimed_gpus.size() == 1);
  CHECK(layer.facts.claimed_gpus[0].minor == 0);
  CHECK(layer.facts.claimed_gpus[0].uuid == "GPU-1234");
  REQUIRE(layer.facts.unclaimed_gpus.size() == 1);
  CHECK(layer.facts.unclaimed_gpus[0].driver == "nouveau");
}

TEST_CASE("kernel-module: a truncated version file is not trusted") {
  gd::ProbeFixture f;
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  f.host.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.5");
  auto context = f.context();
  const auto layer = gd::probe_kernel_module(context);
  CHECK_FALSE(layer.facts.version);
  REQUIRE(layer.unreadable.size() == 1);
  CHECK(layer.unreadable[0].problem.find("truncated") != std::string::npos);
}

TEST_CASE("kernel-module: the running kernel's /lib/modules removed by an upgrade, and the cases that are not that") {
  auto probe = [](gd::ProbeFixture& f) {
    f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
    auto context = f.context();
    return gd::probe_kernel_module(context).facts;
  };
  gd::ProbeFixture upgraded;  // pacman -Syu: only the new kernel's directory is left
  upgraded.host.kernel.release = "6.12.3-arch1-1";
  upgraded.host.file("/lib/modules/6.12.4-arch1-1/modules.dep", "").file("/lib/modules/6.6.65-1-lts/modules.dep", "");
  const auto facts = probe(upgraded);
  CHECK(facts.running_kernel_modules_missing == true);
  CHECK(facts.other_kernel_releases == std::vector<std::string>{"6.12.4-arch1-1", "6.6.65-1-lts"});

  gd::ProbeFixture present;
  present.host.file("/lib/modules/6.1.0-test/modules.dep", "");
  CHECK(probe(present).running_kernel_modules_missing == false);

  gd::ProbeFixture usr_only;  // /lib/modules keeps an old kernel, the running one's are in /usr/lib/modules (kmod's MODULE_DIRECTORY)
  usr_only.host.file("/lib/modules/6.0.0-old/modules.dep", "").file("/usr/lib/modules/6.1.0-test/modules.dep", "");
  CHECK(probe(usr_only).running_kernel_modules_missing == false);

  gd::ProbeFixture none;  // no /lib/modules at all (a kernel without modules, NixOS): not an upgrade, unknown
  CHECK_FALSE(probe(none).running_kernel_modules_missing);

  gd::ProbeFixture hostile;  // a release that would leave /lib/modules is never looked up
  hostile.host.kernel.release = "../../etc";
  hostile.host.file("/lib/modules/6.12.4-arch1-1/modules.dep", "");
  CHECK_FALSE(probe(hostile).running_kernel_modules_missing);
}

TEST_CASE("kernel-module: the kernel log from /dev/kmsg before anything else, dmesg started ahead only where it cannot be read") {
  const auto probe = [](gd::ProbeFixture& f, bool with_kmsg) {
    f.pci_gpu("0000:01:00.0", "2330", "nvidia");
    f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
    if (with_kmsg) f.host.records["/dev/kmsg"] = {"4,9,2000000,-;NVRM: RmInitAdapter failed! (0x22:0x56:762)\n", 55};
    f.host.answers["command dmesg"] = gd::child_answer("[    3.000000] NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n");
    auto context = f.context();
    context.hardware = gd::probe_hardware(context).facts;
    auto layer = gd::probe_kernel_module(context);
    gd::finish_kernel_module(context, layer);
    return layer;
  };
  gd::ProbeFixture readable;
  const auto from_file = probe(readable, true);
  REQUIRE(from_file.facts.kernel_log);
  CHECK(*from_file.facts.kernel_log->source == "/dev/kmsg");
  CHECK(from_file.facts.kernel_log->rm_init_failed);
  CHECK(readable.host.asked_ahead.empty());
  CHECK(readable.host.asked.empty());

  gd::ProbeFixture container;  // no /dev/kmsg
  const auto from_dmesg = probe(container, false);
  REQUIRE(from_dmesg.facts.kernel_log);
  CHECK(*from_dmesg.facts.kernel_log->source == "dmesg");
  CHECK(from_dmesg.facts.kernel_log->fallen_off_bus);
  REQUIRE(container.host.asked_ahead.size() == 1);
  CHECK(container.host.asked_ahead[0].key() == "command dmesg");
}

TEST_CASE("kernel-module: kmod's release from dpkg, else from `kmod --version`, and nothing from an answer that is not kmod's") {
  const auto release_with = [](const std::optional<gd::ChildAnswer>& answer) {
    gd::ProbeFixture f;
    f.pci_gpu("0000:01:00.0", "2330", "nvidia");
    f.host.file("/proc/modules", "");
    // An xz stream whose header says CRC64 (stream flags 00 04, then their CRC32): the kernel's decoder refuses it.
    f.host.file("/lib/modules/6.1.0-test/updates/dkms/nvidia.ko.xz", std::string("\xfd" "7zXZ\0\0\x04\xe6\xd6\xb4\x46", 12));
    f.host.file("/lib/modules/6.1.0-test/modules.dep", "updates/dkms/nvidia.ko.xz:\n");
    f.host.file("/sys/module/compression", "xz\n");
    if (answer) f.host.answers["command kmod --version"] = *answer;
    auto context = f.context();
    context.hardware = gd::probe_hardware(context).facts;
    const auto layer = gd::probe_kernel_module(context);
    REQUIRE(layer.facts.installed_modules);
    REQUIRE(layer.facts.installed_modules->size() == 1);
    CHECK(layer.facts.installed_modules->front().xz_check == gd::XzCheck::crc64);
    return layer.facts.kmod_release;
  };
  CHECK(release_with(gd::child_answer("kmod version 28\n+ZSTD +XZ -ZLIB +LIBCRYPTO -EXPERIMENTAL\n")) == 28);
  CHECK(release_with(gd::child_answer("kmod version 34.2\n")) == 34);
  CHECK_FALSE(release_with(gd::child_answer("kmod version x\n")));
  CHECK_FALSE(release_with(gd::child_answer("busybox v1.36 multi-call binary\n")));
  CHECK_FALSE(release_with(gd::child_answer("", 127)));
  CHECK_FALSE(release_with(std::nullopt));  // nothing answered (a replay that did not record it)
}
