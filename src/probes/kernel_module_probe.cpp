#include "probes/kernel_module_probe.h"

#include "rules/cuda_tables.h"
#include "util/text.h"
#include "util/version.h"

#include <set>

namespace gd {
namespace json = boost::json;

namespace {

constexpr const char* k_proc_modules = "/proc/modules";
constexpr const char* k_proc_version = "/proc/driver/nvidia/version";
constexpr const char* k_proc_gpus = "/proc/driver/nvidia/gpus";
constexpr const char* k_secure_boot_var = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
constexpr const char* k_watched_modules[] = {"nvidia", "nvidia_uvm", "nvidia_modeset", "nvidia_drm",
                                             "nouveau", "nova_core", "nova_drm"};

// /proc/modules lines: "name size refcount deps state address (taints)".
json::object read_modules(ProbeContext& context, LayerFacts& layer) {
  json::object modules;
  auto text = context.host.read_file(k_proc_modules, 1 << 20);
  layer.set("proc_modules", text ? "ok" : errno_name(text.error()), k_proc_modules);
  if (text && !looks_like_text(*text)) note_unreadable(layer, k_proc_modules, "binary data", text->substr(0, 40));
  // Without /proc/modules (a kernel built without module support, or a
  // sandbox) /sys/module still lists loaded and built-in modules.
  const bool sys_module = context.host.list_dir("/sys/module").has_value();
  std::set<std::string_view> listed;
  if (text)
    for (auto line : lines(*text)) listed.insert(split(line, ' ')[0]);
  for (const char* name : k_watched_modules) {
    bool loaded = listed.count(name) > 0 || context.host.exists(std::string("/sys/module/") + name + "/initstate");
    if (std::string_view(name) == "nvidia") loaded = loaded || context.host.exists(k_proc_version);
    modules[name] = loaded || text || sys_module ? json::value(loaded) : json::value(nullptr);
  }
  return modules;
}

void read_version(ProbeContext& context, LayerFacts& layer) {
  auto text = context.host.read_file(k_proc_version, k_small_file);
  auto sysfs = context.host.read_file("/sys/module/nvidia/version", 256);
  std::optional<Version> version;
  if (text) {
    const auto first_line = lines(*text).empty() ? std::string_view() : lines(*text)[0];
    layer.set("version_line", printable(trim(first_line), 200), k_proc_version);
    // The kernel always ends the line; without a newline the file was cut
    // short, and "550.5" may be the start of 550.54.14.
    const bool complete = text->find('\n') != std::string::npos;
    version = complete ? find_driver_version(first_line) : std::nullopt;
    if (!complete) note_unreadable(layer, k_proc_version, "truncated: the first line does not end", std::string(first_line));
    else if (!version) note_unreadable(layer, k_proc_version, "no driver version in the first line", std::string(first_line));
    if (contains(first_line, "Open Kernel Module")) layer.set("flavour", "open", k_proc_version);
    else if (version && contains(first_line, "Kernel Module")) layer.set("flavour", "proprietary", k_proc_version);
  }
  if (sysfs) {
    const auto sysfs_version = Version::parse(trim(*sysfs));
    if (sysfs_version) layer.set("sysfs_version", sysfs_version->text(), "/sys/module/nvidia/version");
    else note_unreadable(layer, "/sys/module/nvidia/version", "not a version", *sysfs);
    if (!version) version = sysfs_version;
  }
  if (!version) return;
  const std::string source = text ? k_proc_version : "/sys/module/nvidia/version";
  layer.set("version", version->text(), source);
  layer.set("branch", static_cast<std::int64_t>(version->major()), source);
  // What the driver reports to CUDA (cuDriverGetVersion), from its branch.
  if (auto cuda = context.rules.cuda.cuda_for_branch(static_cast<int>(version->major()))) {
    layer.set("driver_cuda", cuda->text(), "rules/tables/cuda-drivers.json (branch " + std::to_string(version->major()) + ")");
    layer.set("driver_cuda_major", static_cast<std::int64_t>(cuda->major()));
  }
}

json::array read_claimed_gpus(ProbeContext& context, LayerFacts& layer) {
  json::array claimed;
  auto entries = context.host.list_dir(k_proc_gpus);
  if (!entries) return claimed;
  for (const auto& bdf : *entries) {
    const std::string path = std::string(k_proc_gpus) + "/" + bdf + "/information";
    json::object gpu{{"bdf", printable(bdf, 64)}, {"source", path}};
    if (auto text = context.host.read_file(path, k_small_file)) {
      if (!looks_like_text(*text)) note_unreadable(layer, path, "binary data", text->substr(0, 40));
      auto fields = parse_colon_fields(*text);
      if (!fields["Model"].empty()) gpu["name"] = printable(fields["Model"], 120);
      if (auto minor = parse_int(fields["Device Minor"]); minor && *minor >= 0 && *minor < 4096) gpu["minor"] = *minor;
      else note_unreadable(layer, path, "no usable Device Minor", fields["Device Minor"]);
      if (!fields["GPU Excluded"].empty()) gpu["excluded"] = fields["GPU Excluded"] == "Yes";
      if (fields["GPU UUID"].starts_with("GPU-")) gpu["uuid"] = printable(fields["GPU UUID"], 64);
    }
    claimed.push_back(std::move(gpu));
  }
  return claimed;
}

// PCI GPUs that the module did not claim: bound to nothing, or to another driver.
json::array find_unclaimed(const json::object& hardware, const json::array& claimed) {
  json::array unclaimed;
  const auto* gpus = hardware.if_contains("gpus");
  if (!gpus || !gpus->is_array()) return unclaimed;
  for (const auto& gpu : gpus->get_array()) {
    const auto& object = gpu.get_object();
    bool found = false;
    for (const auto& mine : claimed)
      found = found || mine.get_object().at("bdf").as_string() == object.at("bdf").as_string();
    if (!found && object.at("driver").as_string() != "nvidia") unclaimed.push_back(gpu);
  }
  return unclaimed;
}

// modules.dep lists every module built for a kernel; no nvidia.ko there
// means a kernel update came without a driver rebuild (DKMS).
void check_built_for_kernel(ProbeContext& context, LayerFacts& layer) {
  const std::string release = context.host.uname().release;
  if (release.empty() || release.find('/') != std::string::npos) return;
  const std::string path = "/lib/modules/" + release + "/modules.dep";
  auto text = context.host.read_file(path, 32 << 20);
  if (!text) return;
  std::string module_file;
  for (auto line : lines(*text)) {
    const auto key = line.substr(0, line.find(':'));
    const auto slash = key.rfind('/');
    const auto base = slash == std::string_view::npos ? key : key.substr(slash + 1);
    if (base.starts_with("nvidia.ko")) module_file = std::string(key);
  }
  layer.set("built_for_running_kernel", !module_file.empty(), path);
  if (!module_file.empty()) layer.set("module_file", printable(module_file, 200), path);
}

void check_secure_boot(ProbeContext& context, LayerFacts& layer) {
  if (!context.host.exists("/sys/firmware/efi")) {
    layer.set("secure_boot", false, "/sys/firmware/efi");
    return;
  }
  auto value = context.host.read_file(k_secure_boot_var, 64);
  // efivarfs: 4 bytes of attributes, then the value byte.
  if (value && value->size() == 5) layer.set("secure_boot", (*value)[4] == 1, k_secure_boot_var);
}

void summarise(ProbeContext& context, LayerFacts& layer) {
  const auto platform = context.platform();
  const auto& facts = layer.facts;
  const bool loaded = facts.at("loaded").is_bool() && facts.at("loaded").as_bool();
  if (platform == "wsl2" || platform == "wsl1") {
    layer.status = Status::skip;
    layer.summary = "WSL: the Windows driver serves the GPU through /dev/dxg; there is no Linux nvidia module";
  } else if (platform == "gvisor" && !loaded) {
    layer.status = Status::skip;
    layer.summary = "gVisor: nvproxy forwards to the host driver, whose module is not visible in the sandbox";
  } else if (loaded) {
    layer.status = Status::ok;
    const auto* version = facts.if_contains("version");
    const auto* flavour = facts.if_contains("flavour");
    layer.summary = "nvidia " + (version ? std::string(version->as_string()) : std::string("(version unknown)")) +
                    (flavour ? " (" + std::string(flavour->as_string()) + ")" : "") + " loaded, " +
                    std::to_string(facts.at("claimed_gpus").as_array().size()) + " GPU(s) claimed";
  } else {
    layer.summary = facts.at("loaded").is_null() ? "cannot tell whether nvidia is loaded" : "nvidia module not loaded";
  }
}

}  // namespace

LayerFacts probe_kernel_module(ProbeContext& context) {
  LayerFacts layer{"kernel-module", Status::unknown, "", {}, {}};
  json::object modules = read_modules(context, layer);
  const json::value loaded = modules["nvidia"];
  layer.set("loaded", loaded, k_proc_modules);
  layer.set("modules", std::move(modules), k_proc_modules);
  read_version(context, layer);
  json::array claimed = read_claimed_gpus(context, layer);
  layer.set("unclaimed_gpus", find_unclaimed(context.facts_of("hardware"), claimed), k_proc_gpus);
  layer.set("claimed_gpus", std::move(claimed), k_proc_gpus);
  layer.set("nvidia_modprobe", context.host.exists("/usr/bin/nvidia-modprobe"), "/usr/bin/nvidia-modprobe");
  if (!(loaded.is_bool() && loaded.as_bool()) && context.platform() == "linux") {
    check_built_for_kernel(context, layer);
    check_secure_boot(context, layer);
  }
  summarise(context, layer);
  return layer;
}

}  // namespace gd
