#include "probes/integrated_gpu.h"

#include "probes/hardware_probe.h"
#include "util/path.h"
#include "util/text.h"

namespace gd {

namespace {

constexpr const char* k_tegra_release = "/etc/nv_tegra_release";
constexpr const char* k_soc_family = "/sys/devices/soc0/family";
constexpr const char* k_platform_devices = "/sys/bus/platform/devices";

// The device tree is visible as /proc/device-tree (a link) and below /sys/firmware.
std::optional<std::string> device_tree(Host& host, const char* property) {
  for (const std::string base : {"/proc/device-tree/", "/sys/firmware/devicetree/base/"})
    if (auto text = host.read_file(base + property, 4096)) return *text;
  return std::nullopt;
}

// compatible holds NUL-separated names, most specific first; the SoC is the nvidia,tegraNNN one.
std::optional<std::string> tegra_compatible(const std::string& compatible) {
  for (auto name : split(compatible, '\0'))
    if (name.starts_with("nvidia,tegra")) return printable(name, 40);
  return std::nullopt;
}

// nvgpu's platform devices: 57000000.gpu (T210), 17000000.gp10b, 17000000.gv11b, 17000000.ga10b or .gpu.
bool is_gpu_device(std::string_view name) {
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  const auto kind = name.substr(dot + 1);
  return kind == "gpu" || (kind.size() == 5 && kind[0] == 'g' && kind[4] == 'b');
}

void find_gpu_device(Host& host, IntegratedGpu& gpu) {
  auto entries = host.list_dir(k_platform_devices);
  if (!entries) return;
  for (const auto& name : *entries) {
    if (!is_gpu_device(name)) continue;
    const std::string dir = join_path(k_platform_devices, name);
    gpu.device = printable(dir, 200);
    gpu.driver.value = bound_driver(host, dir);
    return;
  }
}

}  // namespace

std::optional<std::string> parse_tegra_release(std::string_view text) {
  const auto line = text.substr(0, text.find('\n'));
  const auto r = line.find("# R");
  const auto revision = line.find("REVISION: ");
  if (r == std::string_view::npos || revision == std::string_view::npos) return std::nullopt;
  const auto major = parse_int(trim(line.substr(r + 3, line.find(' ', r + 3) - (r + 3))));
  const auto rev_text = trim(line.substr(revision + 10, line.find(',', revision) - (revision + 10)));
  if (!major || *major <= 0 || *major > 999 || rev_text.empty() || rev_text.size() > 12 ||
      rev_text.find_first_not_of("0123456789.") != std::string_view::npos)
    return std::nullopt;
  return std::to_string(*major) + "." + std::string(rev_text);
}

std::optional<IntegratedGpu> probe_integrated_gpu(ProbeContext& context, Probed<HardwareFacts>& notes) {
  Host& host = context.host;
  IntegratedGpu gpu;
  const auto compatible = device_tree(host, "compatible");
  const auto soc = compatible ? tegra_compatible(*compatible) : std::nullopt;
  if (soc) gpu.evidence.push_back("device tree: " + *soc);
  const auto family = host.read_file(k_soc_family, 256);
  if (family && to_lower(trim(*family)).starts_with("tegra")) gpu.evidence.push_back(concat({k_soc_family, ": Tegra"}));
  const auto release = host.read_file(k_tegra_release, 4096);
  if (release) gpu.evidence.emplace_back(k_tegra_release);
  if (gpu.evidence.empty()) return std::nullopt;

  gpu.soc = soc.value_or("tegra");
  if (const auto* row = context.tables.tegra.soc(gpu.soc)) {
    gpu.soc_name = row->soc;
    gpu.chip = row->chip;
    gpu.architecture = row->architecture;
    gpu.compute_capability = row->compute_capability;
    if (!row->kernel_module.empty()) gpu.kernel_module = row->kernel_module;
  }
  if (auto model = device_tree(host, "model")) gpu.model = printable(trim(std::string_view(*model).substr(0, model->find('\0'))), 120);
  if (release) {
    if (auto l4t = parse_tegra_release(*release)) {
      gpu.l4t_release = *l4t;
      if (const auto* row = context.tables.tegra.release(*l4t)) {
        gpu.jetpack = row->jetpack;
        gpu.driver_cuda = row->cuda;
      }
    } else {
      notes.note_unreadable(k_tegra_release, "not an L4T release line", printable(*release, 80));
    }
  }
  find_gpu_device(host, gpu);
  notes.source(&HardwareFacts::integrated_gpu, "/proc/device-tree, " + std::string(k_tegra_release) + ", " + k_platform_devices);
  return gpu;
}

}  // namespace gd
