#include "probes/kernel_module_probe.h"

#include "platforms/machine_platform.h"
#include "util/text.h"
#include "util/version.h"

#include "probes/dpkg_status.h"
#include "probes/kernel_log.h"
#include "probes/module_config.h"
#include "probes/module_signing.h"
#include "probes/gsp_firmware.h"
#include "util/path.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace gd {

namespace {

constexpr const char* k_proc_modules = "/proc/modules";
constexpr const char* k_proc_version = "/proc/driver/nvidia/version";
constexpr const char* k_proc_gpus = "/proc/driver/nvidia/gpus";
constexpr const char* k_secure_boot_var = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
constexpr const char* k_watched_modules[] = {"nvidia", "nvidia_uvm", "nvidia_modeset", "nvidia_drm",
                                             "nouveau", "nova_core", "nova_drm", "nvidia_peermem", "nvidia_fs", "nvgpu"};

Nullable<bool>& state_of(ModuleStates& states, std::string_view name) {
  if (name == "nvidia_uvm") return states.nvidia_uvm;
  if (name == "nvidia_modeset") return states.nvidia_modeset;
  if (name == "nvidia_drm") return states.nvidia_drm;
  if (name == "nouveau") return states.nouveau;
  if (name == "nova_core") return states.nova_core;
  if (name == "nova_drm") return states.nova_drm;
  if (name == "nvidia_peermem") return states.nvidia_peermem;
  if (name == "nvidia_fs") return states.nvidia_fs;
  if (name == "nvgpu") return states.nvgpu;
  return states.nvidia;
}

// /proc/modules lines: "name size refcount deps state address (taints)".
void read_modules(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  auto text = context.host.read_file(k_proc_modules, 1 << 20);
  layer.facts.proc_modules = text ? "ok" : errno_name(text.error());
  if (text && !looks_like_text(*text)) layer.note_unreadable(k_proc_modules, "binary data", text->substr(0, 40));
  // Without /proc/modules (a kernel built without module support, or a
  // sandbox) /sys/module still lists loaded and built-in modules.
  const bool sys_module = context.host.list_dir("/sys/module").has_value();
  std::set<std::string_view> listed;
  if (text)
    for (auto line : lines(*text)) listed.insert(split(line, ' ')[0]);
  for (const char* name : k_watched_modules) {
    bool loaded = listed.count(name) > 0 || context.host.exists(std::string("/sys/module/") + name + "/initstate");
    if (std::string_view(name) == "nvidia") loaded = loaded || context.host.exists(k_proc_version);
    if (loaded || text || sys_module) state_of(layer.facts.modules, name) = loaded;
  }
}

void read_version(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  auto& facts = layer.facts;
  auto text = context.host.read_file(k_proc_version, k_small_file);
  auto sysfs = context.host.read_file("/sys/module/nvidia/version", 256);
  std::optional<Version> version;
  if (text) {
    const auto first_line = lines(*text).empty() ? std::string_view() : lines(*text)[0];
    facts.version_line = printable(trim(first_line), 200);
    layer.source(&KernelModuleFacts::version_line, k_proc_version);
    // The kernel always ends the line; without a newline the file was cut
    // short, and "550.5" may be the start of 550.54.14.
    const bool complete = text->find('\n') != std::string::npos;
    version = complete ? find_driver_version(first_line) : std::nullopt;
    if (!complete) layer.note_unreadable(k_proc_version, "truncated: the first line does not end", std::string(first_line));
    else if (!version) layer.note_unreadable(k_proc_version, "no driver version in the first line", std::string(first_line));
    if (contains(first_line, "Open Kernel Module")) facts.flavour = ModuleFlavour::open;
    else if (version && contains(first_line, "Kernel Module")) facts.flavour = ModuleFlavour::proprietary;
    if (facts.flavour) layer.source(&KernelModuleFacts::flavour, k_proc_version);
  }
  if (sysfs) {
    const auto sysfs_version = Version::parse(trim(*sysfs));
    if (sysfs_version) {
      facts.sysfs_version = sysfs_version->text();
      layer.source(&KernelModuleFacts::sysfs_version, "/sys/module/nvidia/version");
    } else {
      layer.note_unreadable("/sys/module/nvidia/version", "not a version", *sysfs);
    }
    if (!version) version = sysfs_version;
  }
  if (!version) return;
  const std::string source = text ? k_proc_version : "/sys/module/nvidia/version";
  facts.version = version->text();
  facts.branch = version->major();
  layer.source(&KernelModuleFacts::version, source);
  layer.source(&KernelModuleFacts::branch, source);
  // What the driver reports to CUDA (cuDriverGetVersion), from its branch.
  if (auto cuda = context.tables.cuda.cuda_for_branch(static_cast<int>(version->major()))) {
    facts.driver_cuda = cuda->text();
    facts.driver_cuda_major = cuda->major();
    layer.source(&KernelModuleFacts::driver_cuda, "rules/tables/cuda-drivers.json (branch " + std::to_string(version->major()) + ")");
  }
}

std::vector<ClaimedGpu> read_claimed_gpus(ProbeContext& context, ProbeNotes& notes) {
  std::vector<ClaimedGpu> claimed;
  auto entries = context.host.list_dir(k_proc_gpus);
  if (!entries) return claimed;
  for (const auto& bdf : *entries) {
    const std::string path = join_path(join_path(k_proc_gpus, bdf), "information");
    ClaimedGpu gpu{printable(bdf, 64), path, {}, {}, {}, {}};
    if (auto text = context.host.read_file(path, k_small_file)) {
      if (!looks_like_text(*text)) notes.note_unreadable(path, "binary data", text->substr(0, 40));
      auto fields = parse_colon_fields(*text);
      if (!fields["Model"].empty()) gpu.name = printable(fields["Model"], 120);
      if (auto minor = parse_int(fields["Device Minor"]); minor && *minor >= 0 && *minor < 4096) gpu.minor = *minor;
      else notes.note_unreadable(path, "no usable Device Minor", fields["Device Minor"]);
      if (!fields["GPU Excluded"].empty()) gpu.excluded = fields["GPU Excluded"] == "Yes";
      if (fields["GPU UUID"].starts_with("GPU-")) gpu.uuid = printable(fields["GPU UUID"], 64);
    }
    claimed.push_back(std::move(gpu));
  }
  return claimed;
}

// PCI GPUs that the module did not claim: bound to nothing, or to another driver.
std::vector<PciFunction> find_unclaimed(const HardwareFacts& hardware, const std::vector<ClaimedGpu>& claimed) {
  std::unordered_set<std::string> claimed_bdfs;
  for (const auto& gpu : claimed) claimed_bdfs.insert(gpu.bdf);
  std::vector<PciFunction> unclaimed;
  for (const auto& gpu : hardware.gpus)
    if (!claimed_bdfs.count(gpu.bdf) && gpu.driver != "nvidia") unclaimed.push_back(gpu);
  return unclaimed;
}

// modules.dep lists every module built for a kernel; no nvidia.ko there
// means a kernel update came without a driver rebuild (DKMS).
void check_built_for_kernel(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  const std::string release = context.host.uname().release;
  if (release.empty() || release.find('/') != std::string::npos) return;
  const std::string path = "/lib/modules/" + release + "/modules.dep";
  auto text = context.host.read_file(path, 8 << 20);  // a distribution's modules.dep is under 1 MB
  if (!text) return;
  std::string module_file;
  for (auto line : lines(*text)) {
    const auto key = line.substr(0, line.find(':'));
    const auto base = base_name(key);
    if (base.starts_with("nvidia.ko")) module_file = std::string(key);
  }
  layer.facts.built_for_running_kernel = !module_file.empty();
  layer.source(&KernelModuleFacts::built_for_running_kernel, path);
  if (!module_file.empty()) {
    layer.facts.module_file = printable(module_file, 200);
    layer.source(&KernelModuleFacts::module_file, path);
  }
}

// A kernel upgrade that removes the old kernel's modules (Arch's pacman
// does, on every upgrade) leaves the running kernel with no modules on disk
// until the reboot: whatever is not loaded yet can no longer be.
void check_running_kernel_modules(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  const std::string release = context.host.uname().release;
  if (release.empty() || release.find('/') != std::string::npos || release == "." || release == "..") return;
  // kmod 31 may be built to look in /usr/lib/modules where /lib is no link to usr/lib (MODULE_DIRECTORY).
  for (const char* base : {"/lib/modules/", "/usr/lib/modules/"})
    if (context.host.exists(base + release)) {
      layer.facts.running_kernel_modules_missing = false;
      layer.source(&KernelModuleFacts::running_kernel_modules_missing, base + printable(release, 100));
      return;
    }
  auto entries = context.host.list_dir("/lib/modules");
  if (!entries || entries->empty()) return;  // no modules at all: a container or a kernel without any, not an upgrade
  layer.facts.running_kernel_modules_missing = true;
  for (const auto& entry : *entries)
    if (layer.facts.other_kernel_releases.size() < 8) layer.facts.other_kernel_releases.push_back(printable(entry, 100));
  layer.source(&KernelModuleFacts::running_kernel_modules_missing, "/lib/modules");
}

void check_secure_boot(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  if (!context.host.exists("/sys/firmware/efi")) {
    layer.facts.secure_boot = false;
    layer.source(&KernelModuleFacts::secure_boot, "/sys/firmware/efi");
    return;
  }
  auto value = context.host.read_file(k_secure_boot_var, 64);
  // efivarfs: 4 bytes of attributes, then the value byte.
  if (value && value->size() == 5) {
    layer.facts.secure_boot = (*value)[4] == 1;
    layer.source(&KernelModuleFacts::secure_boot, k_secure_boot_var);
  }
}

void summarise(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  const auto platform = context.system.platform;
  const auto& facts = layer.facts;
  const bool loaded = facts.loaded && *facts.loaded;
  if (const char* elsewhere = platform_method(platform).module_elsewhere; elsewhere && !loaded) {
    layer.status = Status::skip;
    layer.summary = elsewhere;
  } else if (const auto& soc = context.hardware.integrated_gpu; soc && !loaded) {
    // A Jetson before Thor: nvgpu (the platform driver "gk20a"), not nvidia, drives the GPU.
    const bool nvgpu = facts.modules.nvgpu && *facts.modules.nvgpu;
    if (soc->driver || nvgpu) {
      layer.status = Status::ok;
      layer.summary = soc->driver ? *soc->driver + " drives the integrated GPU" + (nvgpu ? " (nvgpu loaded)" : " (nvgpu built in)")
                                  : "nvgpu loaded (the integrated GPU's driver)";
    } else {
      layer.summary = "no driver bound to the integrated GPU";
    }
  } else if (loaded) {
    layer.status = Status::ok;
    // Thor (JetPack 7): the open nvidia module drives the integrated GPU on the platform bus, no PCI GPU to claim.
    const auto& soc = context.hardware.integrated_gpu;
    const bool drives_integrated = soc && soc->driver.value == "nvidia" && facts.claimed_gpus.empty();
    layer.summary = "nvidia " + facts.version.value_or("(version unknown)") +
                    (facts.flavour ? std::string(" (") + enum_name(*facts.flavour) + ")" : "") + " loaded, " +
                    (drives_integrated ? std::string("drives the integrated GPU")
                                       : std::to_string(facts.claimed_gpus.size()) + " GPU(s) claimed");
  } else {
    layer.summary = facts.loaded ? "nvidia module not loaded" : "cannot tell whether nvidia is loaded";
  }
}

// The kernel log is read where there is a GPU on the PCI bus, known before
// the module's files are read, or a loaded module, known after.
bool wants_kernel_log_early(const ProbeContext& context) {
  return platform_method(context.system.platform).own_kernel && !context.options.gpu_table && context.hardware.gpu_count > 0;
}

bool wants_kernel_log(const ProbeContext& context, const KernelModuleFacts& facts) {
  return wants_kernel_log_early(context) ||
         (platform_method(context.system.platform).own_kernel && !context.options.gpu_table && facts.loaded && *facts.loaded);
}

void note_kernel_log_source(Probed<KernelModuleFacts>& layer) {
  const auto& source = layer.facts.kernel_log->source;
  layer.source(&KernelModuleFacts::kernel_log, source ? *source : "/dev/kmsg, dmesg, journalctl -k");
}

// A module the kernel unpacks itself: kmod 31 and later hand the compressed
// file to finit_module where /sys/module/compression names its compression,
// and the kernel's xz decoder refuses a stream checked by anything but CRC32
// ('decompression failed with status 6', modprobe's 'Invalid argument').
// dpkg's kmod release is read only for such a module.
void check_kernel_decompression(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  auto& facts = layer.facts;
  constexpr std::string_view k_compression = "/sys/module/compression";
  if (const auto text = context.host.read_file(k_compression, 64)) {
    const auto name = trim(*text);
    if (name == "xz" || name == "zstd" || name == "gzip") {
      facts.kernel_decompresses = std::string(name);
      layer.source(&KernelModuleFacts::kernel_decompresses, std::string(k_compression));
    }
  }
  if (facts.kernel_decompresses != "xz" || !facts.installed_modules) return;
  const bool refused = std::any_of(facts.installed_modules->begin(), facts.installed_modules->end(), [](const InstalledModule& module) {
    return module.xz_check && *module.xz_check != XzCheck::none && *module.xz_check != XzCheck::crc32;
  });
  if (!refused) return;
  // "34.2", "30+20221128": the release is the leading number.
  const auto leading_number = [](std::string_view version) { return parse_int(version.substr(0, version.find_first_not_of("0123456789"))); };
  if (const auto kmod = find_installed_deb(context.host, [](std::string_view name) { return name == "kmod"; })) {
    if ((facts.kmod_release = leading_number(kmod->upstream_version)))
      layer.source(&KernelModuleFacts::kmod_release, std::string(k_dpkg_status) + ": kmod " + kmod->version);
    return;
  }
  // Where dpkg does not list it (an rpm system: RHEL 9 ships kmod 28), kmod
  // says its own: tools/kmod.c prints "kmod version 28", then its features.
  const auto answer = context.host.ask({ChildKind::command, {"kmod", "--version"}, std::chrono::milliseconds(2000)});
  if (answer.exit != 0) return;
  const std::string first = first_nonblank_line(answer.output);
  const std::string_view line = trim(first);
  constexpr std::string_view k_prefix = "kmod version ";
  if (!line.starts_with(k_prefix)) return;
  if ((facts.kmod_release = leading_number(line.substr(k_prefix.size()))))
    layer.source(&KernelModuleFacts::kmod_release, "kmod --version: kmod version " + std::to_string(*facts.kmod_release));
}

}  // namespace

Probed<KernelModuleFacts> probe_kernel_module(ProbeContext& context) {
  Probed<KernelModuleFacts> layer;
  auto& facts = layer.facts;
  // Files first: /dev/kmsg is read now; where it cannot be, dmesg runs while the module's files are read.
  if (wants_kernel_log_early(context)) {
    facts.kernel_log = read_kernel_messages(context.host, context.tables.cuda);
    if (facts.kernel_log) note_kernel_log_source(layer);
    else ask_kernel_log_ahead(context.host);
  }
  read_modules(context, layer);
  facts.loaded = facts.modules.nvidia;
  layer.source_of_each(k_proc_modules, &KernelModuleFacts::proc_modules, &KernelModuleFacts::loaded, &KernelModuleFacts::modules);
  read_version(context, layer);
  facts.claimed_gpus = read_claimed_gpus(context, layer);
  facts.unclaimed_gpus = find_unclaimed(context.hardware, facts.claimed_gpus);
  layer.source(&KernelModuleFacts::claimed_gpus, k_proc_gpus);
  layer.source(&KernelModuleFacts::unclaimed_gpus, k_proc_gpus);
  // A Jetson's libcuda is L4T's: the CUDA it supports follows the L4T release.
  if (const auto& soc = context.hardware.integrated_gpu; soc && soc->driver_cuda && !facts.driver_cuda)
    if (const auto cuda = Version::parse(*soc->driver_cuda)) {
      facts.driver_cuda = cuda->text();
      facts.driver_cuda_major = cuda->major();
      layer.source(&KernelModuleFacts::driver_cuda, "/etc/nv_tegra_release: L4T " + soc->l4t_release.value.value_or("?") + " (rules/tables/tegra-socs.json)");
    }
  facts.nvidia_modprobe = context.host.exists("/usr/bin/nvidia-modprobe");
  layer.source(&KernelModuleFacts::nvidia_modprobe, "/usr/bin/nvidia-modprobe");
  if (auto text = context.host.read_file("/proc/driver/nvidia/params", k_small_file)) {
    for (const auto& [key, value] : parse_colon_fields(*text))
      if (facts.params.size() < 128) facts.params[printable(key, 64)] = printable(value, 200);
    layer.source(&KernelModuleFacts::params, "/proc/driver/nvidia/params");
  }
  facts.modprobe = read_modprobe_config(context.host);
  layer.source(&KernelModuleFacts::modprobe, "/etc/modprobe.d");
  const bool own_kernel = platform_method(context.system.platform).own_kernel;
  if (own_kernel) check_running_kernel_modules(context, layer);
  if (!(facts.loaded && *facts.loaded) && own_kernel) {
    check_built_for_kernel(context, layer);
    check_secure_boot(context, layer);
    facts.installed_modules = find_installed_modules(context.host, context.host.uname().release);
    // modules.dep names the one file modprobe loads, relative to the release's directory.
    if (facts.module_file)
      for (auto& module : *facts.installed_modules) {
        module.modprobe_loads = module.path.ends_with("/" + *facts.module_file);
        if (*module.modprobe_loads) facts.module_file_signed = module.signed_;
      }
    if (facts.secure_boot && *facts.secure_boot) {
      facts.signing_keys = find_signing_keys(context.host);
      facts.signing_key_enrolled = some_key_enrolled(*facts.signing_keys);
      layer.source(&KernelModuleFacts::signing_keys, "/var/lib/dkms/mok.pub and friends; MokListRT, db (efivarfs)");
    }
    check_kernel_decompression(context, layer);
    facts.installed_matches_kernel = std::any_of(facts.installed_modules->begin(), facts.installed_modules->end(),
                                                 [](const InstalledModule& module) { return module.matches_kernel == true; });
    for (const auto& module : *facts.installed_modules) {
      const auto version = module.version ? Version::parse(*module.version) : std::nullopt;
      if (!version) continue;
      facts.installed_branch = version->major();
      facts.installed_flavour = module.flavour;
      break;
    }
    layer.source(&KernelModuleFacts::installed_modules, "/lib/modules/" + printable(context.host.uname().release, 100));
  }
  // The firmware the loaded driver (or else the module modprobe would load) needs at GPU init.
  if (own_kernel) {
    std::optional<std::string> version = facts.version;
    if (!version && facts.installed_modules)
      for (const auto& module : *facts.installed_modules)
        if (module.version && (module.modprobe_loads != false)) {
          version = module.version;
          break;
        }
    if (version) {
      facts.gsp_firmware = find_gsp_firmware(context.host, *version);
      layer.source(&KernelModuleFacts::gsp_firmware, "/lib/firmware/nvidia/" + printable(*version, 40) + " (and the kernel's other firmware directories)");
    }
  }
  // Where /dev/kmsg could not be read, the kernel log is taken by
  // finish_kernel_module: dmesg, started ahead before the driver is asked
  // anything, runs while the rest is read.
  summarise(context, layer);
  return layer;
}

void finish_kernel_module(ProbeContext& context, Probed<KernelModuleFacts>& layer) {
  auto& facts = layer.facts;
  if (facts.kernel_log || !wants_kernel_log(context, facts)) return;
  if (!wants_kernel_log_early(context)) facts.kernel_log = read_kernel_messages(context.host, context.tables.cuda);  // not tried yet
  if (!facts.kernel_log) facts.kernel_log = read_kernel_log(context.host, context.tables.cuda);
  note_kernel_log_source(layer);
}

}  // namespace gd
