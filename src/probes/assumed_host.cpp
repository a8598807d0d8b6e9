#include "probes/assumed_host.h"

#include "util/text.h"
#include "util/version.h"

#include <cstdio>

namespace gd {

Probed<HardwareFacts> probe_assumed_hardware(ProbeContext& context) {
  Probed<HardwareFacts> layer;
  auto& facts = layer.facts;
  const auto& spec = context.options.assumed_gpu;
  facts.pci_scan = spec ? "ok" : "not read (an image)";
  if (!spec) {
    layer.status = Status::skip;
    layer.summary = "an image has no GPU; --gpu DEVICE-ID|CC judges it against one";
    return layer;
  }
  PciFunction gpu;
  gpu.bdf = "assumed";
  gpu.source = "--gpu " + printable(*spec, 40);
  gpu.pci_class = "0302";
  gpu.driver = "nvidia";
  gpu.driver_kind = DriverKind::nvidia;
  if (const auto id = parse_hex(*spec); id && spec->size() == 4) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%04x", *id);
    gpu.device_id = hex;
    if (const auto product = context.tables.chips.product(*id)) {
      gpu.name = std::string(product->name);
      gpu.brand = product->brand;
      gpu.product_class = product->product_class;
    }
    if (const auto chip = context.tables.chips.lookup(*id)) {
      gpu.chip = chip->chip;
      gpu.architecture = chip->architecture;
      gpu.compute_capability = chip->compute_capability;
      if (chip->first_branch) gpu.first_branch = *chip->first_branch;
      if (chip->last_branch) gpu.last_branch = *chip->last_branch;
    }
    if (gpu.name.empty()) gpu.name = "NVIDIA device 10de:" + gpu.device_id;
  } else if (const auto cc = Version::parse(*spec); cc && cc->size() == 2) {
    gpu.name = "a GPU of compute capability " + cc->text();
    gpu.compute_capability = cc->text();
  } else {
    throw std::runtime_error("--gpu takes a PCI device id (2330) or a compute capability (9.0), not '" + printable(*spec, 40) + "'");
  }
  facts.gpus.push_back(gpu);
  facts.gpu_count = 1;
  facts.pci_function_count = 1;
  if (gpu.compute_capability) facts.min_compute_capability = *gpu.compute_capability;
  if (is_consumer_brand(gpu.brand)) facts.consumer_gpu_count = 1;
  layer.source(&HardwareFacts::gpus, "--gpu");
  layer.status = Status::ok;
  layer.summary = "assumed: " + gpu.name + (gpu.compute_capability ? " (compute capability " + *gpu.compute_capability + ")" : "");
  return layer;
}

Probed<KernelModuleFacts> probe_assumed_kernel_module(ProbeContext& context) {
  Probed<KernelModuleFacts> layer;
  auto& facts = layer.facts;
  facts.proc_modules = "assumed";
  const auto& spec = context.options.assumed_driver;
  if (!spec) {
    layer.status = Status::skip;
    layer.summary = "an image has no driver; --host-driver VERSION judges it against one";
    return layer;
  }
  const auto version = Version::parse(*spec);
  if (!version || version->major() < 100)
    throw std::runtime_error("--host-driver takes a driver version (550.54.15), not '" + printable(*spec, 40) + "'");
  facts.loaded = true;
  facts.version = version->text();
  facts.branch = version->major();
  if (auto cuda = context.tables.cuda.cuda_for_branch(static_cast<int>(version->major()))) {
    facts.driver_cuda = cuda->text();
    facts.driver_cuda_major = cuda->major();
  }
  layer.source(&KernelModuleFacts::version, "--host-driver");
  layer.status = Status::ok;
  layer.summary = "assumed: host driver " + version->text() + (facts.driver_cuda ? " (CUDA " + *facts.driver_cuda + ")" : "");
  return layer;
}

}  // namespace gd
