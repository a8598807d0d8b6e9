#include "probes/module_config.h"

#include "formats/modinfo.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>

namespace gd {
namespace {

// man 5 modprobe.d: later directories are shadowed by earlier ones with the
// same file name; all are read here, each line kept with its file.
constexpr const char* k_modprobe_dirs[] = {"/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d",
                                          "/usr/lib/modprobe.d", "/lib/modprobe.d"};
constexpr const char* k_watched[] = {"nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nouveau", "nova_core", "nova_drm"};
constexpr std::size_t k_max_config_files = 256;
constexpr std::size_t k_max_entries = 64;
constexpr std::size_t k_max_installed_modules = 16;

bool watched(std::string_view module) {
  std::string name(module);
  std::replace(name.begin(), name.end(), '-', '_');  // modprobe treats - and _ alike
  return std::find(std::begin(k_watched), std::end(k_watched), name) != std::end(k_watched);
}

// Module directories that hold vendor and DKMS builds of nvidia.ko.
constexpr const char* k_module_subdirs[] = {"updates/dkms", "updates", "extra", "kernel/drivers/video",
                                           "kernel/drivers/gpu/drm/nvidia", "misc", "video", "kernel/nvidia",
                                           // akmods and RHEL's kmod packages; weak-updates links to another kernel's build.
                                           "extra/nvidia", "weak-updates", "weak-updates/nvidia"};

}  // namespace

void each_modprobe_line(Host& host, const std::function<void(const std::string& path, std::string_view line)>& visit) {
  std::size_t files_read = 0;
  for (const char* dir : k_modprobe_dirs) {
    auto names = host.list_dir(dir);
    if (!names) continue;
    for (const auto& name : *names) {
      if (!name.ends_with(".conf") || ++files_read > k_max_config_files) continue;
      const std::string path = join_path(dir, name);
      auto text = host.read_file(path, 64 * 1024);
      if (!text) continue;
      for (auto raw : lines(*text)) visit(path, trim(raw.substr(0, raw.find('#'))));
    }
  }
}

ModprobeFacts read_modprobe_config(Host& host) {
  ModprobeFacts facts;
  each_modprobe_line(host, [&facts](const std::string& path, std::string_view line) {
    const auto words = split(line, ' ');
    if (words.size() < 2 || !watched(words[1])) return;
    const std::string module = printable(words[1], 40);
    if (words[0] == "blacklist" && facts.blacklisted.size() < k_max_entries) {
      facts.blacklisted.push_back({module, "blacklist", path});
    } else if (words[0] == "install" && words.size() >= 3 && facts.blacklisted.size() < k_max_entries &&
               (words[2] == "/bin/false" || words[2] == "/bin/true" || words[2] == "/usr/bin/false" ||
                words[2] == "/usr/bin/true")) {
      facts.blacklisted.push_back({module, "install " + std::string(words[2]), path});
    } else if (words[0] == "options" && facts.options.size() < k_max_entries) {
      facts.options.push_back({module, printable(trim(line.substr(line.find(words[1]) + words[1].size())), 200), path});
    }
  });
  return facts;
}

namespace {

// An .xz stream's check ID (archive/xz.h) as the fact names it.
XzCheck xz_check_named(int id) {
  switch (id) {
    case 0: return XzCheck::none;
    case 1: return XzCheck::crc32;
    case 4: return XzCheck::crc64;
    case 10: return XzCheck::sha256;
    default: return XzCheck::other;
  }
}

}  // namespace

std::vector<InstalledModule> find_installed_modules(Host& host, const std::string& release) {
  std::vector<InstalledModule> found;
  UnpackBudget budget;
  if (release.empty() || release.find('/') != std::string::npos) return found;
  // NixOS keeps the running kernel's modules in the booted system.
  const std::string base = (host.exists("/etc/NIXOS") ? "/run/booted-system/kernel-modules/lib/modules/" : "/lib/modules/") + release + "/";
  std::vector<std::string> subdirs(std::begin(k_module_subdirs), std::end(k_module_subdirs));
  // Ubuntu's signed linux-modules-nvidia-<branch> packages: kernel/nvidia-550srv/.
  if (auto kernel = host.list_dir(base + "kernel"))
    for (const auto& name : *kernel)
      if (name.starts_with("nvidia-") && subdirs.size() < 32) subdirs.push_back("kernel/" + name);
  for (const auto& sub : subdirs) {
    auto names = host.list_dir(base + sub);
    if (!names) continue;
    for (const auto& name : *names) {
      // What depmod indexes: the plain module and the three compressions kmod reads.
      if (name != "nvidia.ko" && !(name.starts_with("nvidia.ko.") && module_compression(name))) continue;
      if (found.size() >= k_max_installed_modules) return found;  // nothing read past what is listed
      InstalledModule module;
      module.path = base + sub + "/" + name;
      module.compression = module_compression(name);
      if (module.compression == "xz")
        if (const auto check = module_xz_check(host, module.path)) module.xz_check = xz_check_named(*check);
      auto read = read_modinfo(host, module.path, budget);
      if (!read) {
        module.not_read = "past the " + std::to_string(UnpackBudget{}.bytes >> 20) + " MiB of compressed modules a run unpacks";
        found.push_back(std::move(module));
        continue;
      }
      auto& info = *read;
      if (!info) {
        module.modinfo_problem = info.error();
      } else {
        module.version = info->version;
        module.license = info->license;
        module.signed_ = info->signature_appended;
        module.vermagic = info->vermagic;
        // The open modules are dual-licensed; the proprietary one says "NVIDIA".
        if (info->license) module.flavour = contains(*info->license, "MIT") || contains(*info->license, "GPL") ? ModuleFlavour::open : ModuleFlavour::proprietary;
        // A weak-updates module was built for another kernel of the same kABI on purpose: its vermagic says nothing.
        if (info->vermagic && !sub.starts_with("weak-updates")) module.matches_kernel = info->vermagic->starts_with(release + " ");
      }
      found.push_back(std::move(module));
    }
  }
  return found;
}

}  // namespace gd
