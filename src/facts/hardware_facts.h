#pragma once
// Layer 1, hardware: NVIDIA PCI functions in sysfs.

#include "util/enum_names.h"
#include "model/fact_fields.h"
#include "model/gpu_kinds.h"
#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct PciLink {
  Nullable<std::string> speed, max_speed;
  Nullable<std::int64_t> width, max_width;
  std::optional<bool> width_degraded, speed_below_max;

  template <class F>
  void fields(F& f) const {
    f("speed", speed, "current_link_speed, e.g. \"16.0 GT/s PCIe\"");
    f("max_speed", max_speed, "max_link_speed");
    f("width", width, "current_link_width (lanes)");
    f("max_width", max_width, "max_link_width");
    f("width_degraded", width_degraded, "fewer lanes than the slot allows: a seating or riser fault");
    f("speed_below_max", speed_below_max, "slower than the maximum (normal while idle)");
  }
};

// What the bound driver is, whatever the kernel calls it: nouveau, nova-core
// (its PCI driver is "NovaCore", its module nova_core), vfio-pci or pci-stub.
enum class DriverKind { nvidia, open_source, passthrough, other, none };
template <>
struct EnumTable<DriverKind> {
  static constexpr std::array names{"nvidia", "open-source", "passthrough", "other", "none"};
};

struct PciFunction {
  std::string bdf;
  std::string source;  // its sysfs directory
  std::string vendor_id = "10de";
  std::string device_id;
  std::string pci_class;
  std::string name;
  std::optional<std::string> subsystem;
  std::string driver = "none";
  DriverKind driver_kind = DriverKind::none;
  GpuBrand brand = GpuBrand::unknown;
  ProductClass product_class = ProductClass::unknown;
  std::optional<std::string> chip, compute_capability;
  std::optional<GpuArchitecture> architecture;
  std::optional<std::int64_t> first_branch, last_branch, numa_node;
  std::optional<PciLink> link;  // GPUs only
  std::optional<std::string> held_for_vm;  // GPUs only: where the host says it is meant for a VM

  template <class F>
  void fields(F& f) const {
    f("bdf", bdf, "PCI address, 0000:01:00.0");
    f("source", source, "its /sys/bus/pci/devices directory");
    f("vendor_id", vendor_id, "always 10de");
    f("device_id", device_id, "four hex digits, lower case (10de:2342 is 2342)", FreeText{});
    f("class", pci_class, "PCI base class: 0300 VGA, 0302 3D, 0680 bridge (NVSwitch)");
    f("name", name, "product name from rules/tables/pci-chips.json, else pci.ids through libpci");
    f("subsystem", subsystem, "subsystem vendor:device (the board maker)");
    f("driver", driver, "the kernel driver bound to it, as sysfs names it (nvidia, nouveau, NovaCore, vfio-pci, none)");
    f("driver_kind", driver_kind, "what that driver is: nvidia, open-source (nouveau, nova-core), passthrough (vfio-pci, pci-stub), other or none");
    f("brand", brand, "NVML brand the container toolkit matches brand= against (pci-chips products)");
    f("product_class", product_class, "what it is sold for (pci-chips products)");
    f("chip", chip, "GH100, AD102, ... (pci-chips ranges)");
    f("architecture", architecture, "pci-chips ranges");
    f("compute_capability", compute_capability, "9.0, 8.9, ...");
    f("first_branch", first_branch, "first driver branch that drives the chip");
    f("last_branch", last_branch, "last driver branch of a legacy architecture");
    f("numa_node", numa_node, "-1 when the machine has no NUMA");
    f("link", link, "PCIe link state");
    f("held_for_vm", held_for_vm,
      "where this host says the GPU is meant for a virtual machine: vfio-pci ids in modprobe.d or on the kernel command line, "
      "a Proxmox hostpci line or PCI mapping, driver_override");
  }
};

// An integrated GPU on the platform bus (Jetson and other Tegra SoCs): it
// has no PCI function; the device tree names the SoC and L4T its release.
struct IntegratedGpu {
  std::string soc;  // the device tree's "nvidia,tegra234", or "tegra" when only soc0/family says so
  Nullable<std::string> soc_name, model, chip, compute_capability;
  Nullable<GpuArchitecture> architecture;
  Nullable<std::string> l4t_release, jetpack, driver_cuda;
  Nullable<std::string> device, driver, kernel_module;
  std::vector<std::string> evidence;

  template <class F>
  void fields(F& f) const {
    f("soc", soc, "the SoC's device-tree compatible (nvidia,tegra234)");
    f("soc_name", soc_name, "Orin (T234), ... (rules/tables/tegra-socs.json)");
    f("model", model, "the board, from the device tree's model (NVIDIA Jetson AGX Orin Developer Kit)");
    f("chip", chip, "the integrated GPU (GA10B)");
    f("architecture", architecture, "tegra-socs");
    f("compute_capability", compute_capability, "8.7, ...");
    f("l4t_release", l4t_release, "/etc/nv_tegra_release: R36 REVISION 4.0 is 36.4.0");
    f("jetpack", jetpack, "the JetPack of that L4T release");
    f("driver_cuda", driver_cuda, "the CUDA version that release's libcuda supports");
    f("device", device, "the GPU's platform device (/sys/bus/platform/devices/17000000.gpu)");
    f("driver", driver, "the kernel driver bound to it: gk20a (nvgpu), nvidia (JetPack 7), or null when none is");
    f("kernel_module", kernel_module, "the module that drives this SoC's GPU (tegra-socs.json): nvgpu up to JetPack 6, nvidia on Thor");
    f("evidence", evidence, "what gave the SoC away");
  }
};

// One InfiniBand or RoCE port (/sys/class/infiniband/DEVICE/ports/N).
struct IbPort {
  std::string device;
  std::int64_t port = 0;
  std::optional<std::string> state, phys_state, rate, link_layer;
  std::optional<std::int64_t> link_downed, link_error_recovery;

  template <class F>
  void fields(F& f) const {
    f("device", device, "the RDMA device (mlx5_0)", FreeText{});
    f("port", port, "the port number");
    f("state", state, "the logical state: ACTIVE once a subnet manager (or, for RoCE, the link) brought it up",
      std::vector<std::string>{"DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"});
    f("phys_state", phys_state, "the physical state",
      std::vector<std::string>{"Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
                               "Phy Test"});
    f("rate", rate, "the rate, '400 Gb/sec (4X NDR)'");
    f("link_layer", link_layer, "InfiniBand or Ethernet (RoCE)", std::vector<std::string>{"InfiniBand", "Ethernet"});
    f("link_downed", link_downed,
      "counters/link_downed: how often the link failed to recover from an error and went down, since the counters were "
      "last cleared (the adapter's reset or driver load, or perfquery -R); 255 at most on adapters that keep 8 bits");
    f("link_error_recovery", link_error_recovery, "counters/link_error_recovery: how often it recovered from an error without going down");
  }
};

struct HardwareFacts {
  std::string pci_scan;  // "ok" or the errno of listing /sys/bus/pci/devices
  std::int64_t pci_function_count = 0;
  std::int64_t gpu_count = 0;
  std::int64_t host_gpu_count = 0;
  std::int64_t nvswitch_count = 0;
  std::optional<std::string> min_compute_capability;
  std::int64_t consumer_gpu_count = 0;
  std::int64_t datacenter_gpu_count = 0;
  std::vector<PciFunction> gpus;
  std::vector<PciFunction> nvswitches;
  std::vector<std::string> nvswitch_management_ports;
  std::int64_t bridge_vpd_unreadable = 0;
  std::optional<IntegratedGpu> integrated_gpu;
  std::optional<std::int64_t> expected_gpus;
  std::vector<IbPort> ib_ports;
  std::int64_t ib_ports_active = 0;
  std::optional<std::string> ib_ports_cut;
  std::optional<std::int64_t> expected_ib_ports;

  template <class F>
  void fields(F& f) const {
    f("pci_scan", pci_scan, "ok, or the errno name of listing /sys/bus/pci/devices", read_outcome_names({"not read (an image)"}));
    f("pci_function_count", pci_function_count, "PCI functions of every vendor");
    f("gpu_count", gpu_count, "NVIDIA functions of class VGA or 3D");
    f("host_gpu_count", host_gpu_count, "those this machine may drive itself: not bound to vfio-pci or pci-stub for a virtual machine");
    f("nvswitch_count", nvswitch_count, "NVIDIA bridges (NVSwitch)");
    f("min_compute_capability", min_compute_capability, "the lowest compute capability among the GPUs");
    f("consumer_gpu_count", consumer_gpu_count, "GPUs of brand geforce or titan (no forward compatibility)");
    f("datacenter_gpu_count", datacenter_gpu_count, "GPUs sold for data centres (pci-chips products): headless, run by fleets");
    f("gpus", gpus, "the GPUs");
    f("nvswitches", nvswitches, "the NVSwitches");
    f("nvswitch_management_ports", nvswitch_management_ports,
      "fourth-generation NVSwitch baseboards (HGX B200, B300): the ConnectX bridge functions whose VPD says SMDL=SW_MNG, "
      "through which Fabric Manager and the NVLink Subnet Manager reach the NVSwitches");
    f("ib_ports", ib_ports, "InfiniBand and RoCE ports (/sys/class/infiniband), at most 64");
    f("ib_ports_active", ib_ports_active, "those whose state is ACTIVE (or ACTIVE_DEFER)");
    f("ib_ports_cut", ib_ports_cut, "set when there were more ports than gpudoctor reads: the active count is then a floor");
    f("expected_ib_ports", expected_ib_ports, "--expect ib-ports=N: how many active InfiniBand or RoCE ports the operator says this machine has");
    f("expected_gpus", expected_gpus, "--expect gpus=N: how many NVIDIA GPUs the operator says this machine has on its PCI bus");
    f("bridge_vpd_unreadable", bridge_vpd_unreadable, "ConnectX-7/8 functions whose VPD could not be read (only root may)");
    f("integrated_gpu", integrated_gpu, "a Tegra SoC's GPU on the platform bus (Jetson), which no PCI scan finds");
  }
};

}  // namespace gd
