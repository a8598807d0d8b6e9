// Each layer's probe over the in-memory FakeHost: the facts it sets from
// exactly the files, nodes, variables and child answers a test gives it.
// The scenario snapshots (replay suite) stay the end-to-end layer.

#include "probes/container_probe.h"
#include "probes/cuda_runtime_probe.h"
#include "probes/device_nodes_probe.h"
#include "probes/driver_libs_probe.h"
#include "probes/hardware_probe.h"
#include "probes/kernel_module_probe.h"
#include "probes/system_probe.h"
#include "test_support/fake_host.h"

#include <doctest/doctest.h>

namespace {

struct Fixture {
  gd::RuleSet rules = gd::load_embedded_rules();
  gd::FakeHost host;

  gd::ProbeContext context() { return {host, rules, gd::probe_system(host), {}, {}, {}, {}, {}}; }

  void pci_gpu(const std::string& bdf, const std::string& device, const std::string& driver) {
    const std::string dir = "/sys/bus/pci/devices/" + bdf;
    host.file(dir + "/vendor", "0x10de\n").file(dir + "/device", "0x" + device + "\n").file(dir + "/class", "0x030200\n");
    host.file(dir + "/current_link_width", "8\n").file(dir + "/max_link_width", "16\n");
    if (!driver.empty()) host.link(dir + "/driver", "../../../bus/pci/drivers/" + driver);
  }
};

}  // namespace

TEST_CASE("system: the platform from uname and the nodes") {
  Fixture f;
  SUBCASE("plain Linux") { CHECK(f.context().system.platform == gd::Platform::native_linux); }
  SUBCASE("WSL2 by its kernel release") {
    f.host.kernel.release = "5.15.153.1-microsoft-standard-WSL2";
    CHECK(f.context().system.platform == gd::Platform::wsl2);
  }
  SUBCASE("WSL1: Microsoft without /dev/dxg") {
    f.host.kernel.release = "4.4.0-19041-Microsoft";
    CHECK(f.context().system.platform == gd::Platform::wsl1);
  }
}

TEST_CASE("hardware: GPUs, their brand from the table, and the link") {
  Fixture f;
  f.pci_gpu("0000:01:00.0", "2330", "nvidia");  // H100 SXM5
  f.pci_gpu("0000:02:00.0", "2b85", "");        // RTX 5090, bound to nothing
  f.host.file("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n");
  f.host.file("/sys/bus/pci/devices/0000:03:00.0/vendor", "junk\n");
  auto context = f.context();
  const auto layer = gd::probe_hardware(context);
  CHECK(layer.status == gd::Status::ok);
  CHECK(layer.facts.pci_function_count == 4);
  REQUIRE(layer.facts.gpu_count == 2);
  const auto& h100 = layer.facts.gpus[0];
  CHECK(h100.brand == "tesla");
  CHECK(h100.product_class == "datacenter");
  CHECK(h100.compute_capability == "9.0");
  CHECK(h100.driver == "nvidia");
  CHECK(h100.link->width_degraded == true);
  CHECK(layer.facts.gpus[1].brand == "geforce");
  CHECK(layer.facts.gpus[1].driver == "none");
  CHECK(layer.facts.consumer_gpu_count == 1);
  CHECK(layer.facts.min_compute_capability == "9.0");
  REQUIRE(layer.unreadable.size() == 1);
  CHECK(layer.unreadable[0].path == "/sys/bus/pci/devices/0000:03:00.0/vendor");
}

TEST_CASE("hardware: no PCI bus is unknown on Linux, skip under WSL2") {
  Fixture f;
  auto context = f.context();
  auto layer = gd::probe_hardware(context);
  CHECK(layer.facts.pci_scan == "ENOENT");
  CHECK(layer.status == gd::Status::unknown);
  context.system.platform = gd::Platform::wsl2;
  CHECK(gd::probe_hardware(context).status == gd::Status::skip);
}

TEST_CASE("kernel-module: loaded module, version, claimed and unclaimed GPUs") {
  Fixture f;
  f.pci_gpu("0000:01:00.0", "2330", "nvidia");
  f.pci_gpu("0000:02:00.0", "2330", "nouveau");
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\nnouveau 1 0 - Live 0x0\n");
  f.host.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build\n");
  f.host.file("/proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \t\t NVIDIA H100\nDevice Minor: \t 0\nGPU UUID: \t GPU-1234\n");
  auto context = f.context();
  context.hardware = gd::probe_hardware(context).facts;
  const auto layer = gd::probe_kernel_module(context);
  CHECK(*layer.facts.loaded);
  CHECK(*layer.facts.modules.nouveau);
  CHECK_FALSE(*layer.facts.modules.nvidia_uvm);
  CHECK(layer.facts.version == "550.54.15");
  CHECK(layer.facts.flavour == "open");
  CHECK(layer.facts.driver_cuda == "12.4");
  REQUIRE(layer.facts.claimed_gpus.size() == 1);
  CHECK(layer.facts.claimed_gpus[0].minor == 0);
  CHECK(layer.facts.claimed_gpus[0].uuid == "GPU-1234");
  REQUIRE(layer.facts.unclaimed_gpus.size() == 1);
  CHECK(layer.facts.unclaimed_gpus[0].driver == "nouveau");
}

TEST_CASE("kernel-module: a truncated version file is not trusted") {
  Fixture f;
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  f.host.file("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.5");
  auto context = f.context();
  const auto layer = gd::probe_kernel_module(context);
  CHECK_FALSE(layer.facts.version);
  REQUIRE(layer.unreadable.size() == 1);
  CHECK(layer.unreadable[0].problem.find("truncated") != std::string::npos);
}

TEST_CASE("container: runtime, injection and the toolkit's variables") {
  Fixture f;
  f.host.file("/.dockerenv", "");
  f.host.env_var("NVIDIA_VISIBLE_DEVICES", "all").env_var("NVIDIA_DRIVER_CAPABILITIES", "utility");
  f.host.file("/proc/self/mountinfo", "1 0 0:1 / /proc/driver/nvidia rw - tmpfs tmpfs rw\n");
  f.host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0666, 0, 0, {}, {}};
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK(layer.facts.in_container);
  CHECK(*layer.facts.runtime == "docker");
  CHECK(layer.facts.injection == "legacy");
  CHECK(layer.facts.gpu_requested);
  CHECK(layer.facts.gpu_nodes_present == true);
  CHECK(layer.facts.driver_capabilities.at("effective").as_array().size() == 1);
}

TEST_CASE("container: on a host the layer is skip, and the variables are still read") {
  Fixture f;
  f.host.env_var("NVIDIA_VISIBLE_DEVICES", "void");
  auto context = f.context();
  const auto layer = gd::probe_container(context);
  CHECK_FALSE(layer.facts.in_container);
  CHECK(layer.status == gd::Status::skip);
  CHECK(layer.facts.visible_devices.at("mode").as_string() == "void");
  CHECK_FALSE(layer.facts.injection);
}

TEST_CASE("device-nodes: nodes, missing GPU nodes and CUDA_VISIBLE_DEVICES") {
  Fixture f;
  f.host.file("/proc/modules", "nvidia 1 0 - Live 0x0\n");
  f.host.devices["/dev/nvidiactl"] = {gd::FileType::char_device, 195, 255, 0600, 0, 0, {}, {}};
  f.host.devices["/dev/nvidia0"] = {gd::FileType::char_device, 195, 0, 0666, 0, 0, {}, {}};
  f.host.env_var("CUDA_VISIBLE_DEVICES", "0,5,1");
  auto context = f.context();
  context.kernel_module.loaded = true;
  context.kernel_module.claimed_gpus = {{"0000:01:00.0", "", {}, 0, {}, {}}, {"0000:02:00.0", "", {}, 1, {}, {}}};
  const auto layer = gd::probe_device_nodes(context);
  CHECK(layer.facts.nvidiactl_present);
  CHECK_FALSE(layer.facts.uvm_present);
  CHECK(layer.facts.nodes_expected);
  REQUIRE(layer.facts.nodes.size() == 2);
  CHECK(layer.facts.nodes[0].access == "none");  // 0600 root's, and we are uid 1000
  REQUIRE(layer.facts.missing_gpu_nodes.size() == 1);
  CHECK(layer.facts.missing_gpu_nodes[0].path == "/dev/nvidia1");
  REQUIRE(layer.facts.cuda_visible_devices);
  CHECK(layer.facts.cuda_visible_devices->selected == 1);
  CHECK(*layer.facts.cuda_visible_devices->stopped_at == "5");
}

TEST_CASE("driver-libs: no libcuda, and the toolkit's stub noticed") {
  Fixture f;
  f.host.file("/usr/local/cuda-12.4/lib64/stubs/libcuda.so", "not an ELF file");
  auto context = f.context();
  const auto layer = gd::probe_driver_libs(context);
  REQUIRE(layer.facts.libraries.size() == 4);
  CHECK_FALSE(layer.facts.libraries[0].found);
  CHECK(layer.facts.libraries[0].name == "libcuda.so.1");
  CHECK_FALSE(layer.facts.libraries[0].tried.empty());
  CHECK(layer.facts.stubs == std::vector<std::string>{"/usr/local/cuda-12.4/lib64/stubs/libcuda.so"});
  CHECK(layer.summary == "no libcuda.so.1 for a program to load");
}

TEST_CASE("cuda-runtime: a toolkit's runtime, its version from the file name, the driver it talks to") {
  Fixture f;
  f.host.file("/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "not an ELF file");
  f.host.link("/usr/local/cuda-12.4/lib64/libcudart.so.12", "libcudart.so.12.4.127");
  auto context = f.context();
  context.kernel_module.version = "550.54.15";
  context.kernel_module.driver_cuda = "12.4";
  const auto layer = gd::probe_cuda_runtime(context);
  REQUIRE(layer.facts.runtime_count == 1);
  const auto& runtime = layer.facts.runtimes[0];
  CHECK(runtime.name == "libcudart.so.12");
  CHECK(runtime.install == "toolkit");
  CHECK(runtime.version == "12.4.127");
  CHECK(runtime.cuda == "12.4");
  CHECK(runtime.problem);  // not an ELF file: said so, still listed
  CHECK(runtime.driver_source == "driver 550.54.15");
  CHECK(runtime.driver_cuda_major == 12);
  CHECK_FALSE(runtime.loader_reaches);
}
