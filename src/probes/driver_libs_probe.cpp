#include "probes/driver_libs_probe.h"

#include "platforms/machine_platform.h"
#include "probes/dpkg_status.h"
#include "probes/fabric_manager_log.h"
#include "probes/process_scan.h"

#include "probes/driver_container.h"

#include "loader/load_simulation.h"
#include "loader/search_path.h"
#include "probes/library_files.h"
#include "probes/driver_container.h"
#include "probes/driver_probe.h"
#include "probes/mountinfo.h"
#include "probes/nvidia_smi.h"
#include "probes/systemd_units.h"
#include "tables/cuda_tables.h"
#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <initializer_list>
#include <set>

namespace gd {
namespace json = boost::json;

namespace {

// --smoke asks for a kernel on every GPU; where none ran, the report says why
// rather than leaving the question unanswered (the words are the rule's).
std::optional<SmokeNotRun> why_no_smoke(ProbeContext& context, const DriverLibsFacts& facts) {
  if (facts.cuda_probe && facts.cuda_probe->smoke) return std::nullopt;
  if (context.options.image) return SmokeNotRun::image;
  if (context.host.mode() == HostMode::root) return SmokeNotRun::root;
  if (!facts.libraries.front().found) return SmokeNotRun::no_libcuda;
  if (!facts.cuda_probe) return SmokeNotRun::no_driver_probe;
  if (facts.cuda_probe->status == ChildStatus::unavailable) return SmokeNotRun::static_build;
  if (context.host.mode() == HostMode::replay && facts.cuda_probe->status == ChildStatus::ok) return SmokeNotRun::recorded_without_smoke;
  if (facts.cuda_probe->status == ChildStatus::not_recorded) return SmokeNotRun::not_recorded;
  // The probe stopped first (cuInit failed, it crashed or hung): its own finding answers the question.
  return std::nullopt;
}

// MIG instances from the driver's own files: each GPU instance is a gi*
// directory under /proc/driver/nvidia/capabilities/gpuMINOR/mig, each compute
// instance a ci* directory in it (what nvidia-modprobe makes nodes from). It
// needs no NVML, so the static build sees it too.
void count_mig_instances(ProbeContext& context, NvidiaSmiFacts& smi) {
  for (auto& gpu : smi.gpus) {
    if (gpu.mig_mode != Setting::Enabled || !gpu.bus_id) continue;
    std::optional<std::int64_t> minor;
    for (const auto& claimed : context.kernel_module.claimed_gpus)
      if (claimed.bdf == sysfs_pci_address(*gpu.bus_id)) minor = claimed.minor;
    if (!minor) continue;
    const std::string dir = "/proc/driver/nvidia/capabilities/gpu" + std::to_string(*minor) + "/mig";
    auto entries = context.host.list_dir(dir);
    if (!entries) continue;
    std::int64_t gpu_instances = 0, compute_instances = 0;
    for (const auto& gi : *entries) {
      if (!gi.starts_with("gi") || gpu_instances >= 64) continue;
      ++gpu_instances;
      if (auto cis = context.host.list_dir(dir + "/" + gi))
        for (const auto& ci : *cis) compute_instances += ci.starts_with("ci") ? 1 : 0;
    }
    gpu.mig_gpu_instances = gpu_instances;
    gpu.mig_compute_instances = compute_instances;
  }
}

struct DriverLibrary {
  const char* name;
  const char* stem;  // the real file is <stem>.<driver version>
};

constexpr DriverLibrary k_libraries[] = {
    {"libcuda.so.1", "libcuda.so"},
    {"libnvidia-ml.so.1", "libnvidia-ml.so"},
    {"libnvidia-ptxjitcompiler.so.1", "libnvidia-ptxjitcompiler.so"},
    {"libnvidia-nvvm.so.4", "libnvidia-nvvm.so"},
};

// Where driver libraries are put by drivers, distributions and the toolkit.
// Debian's alternatives (nvidia/current), RHEL and Fedora (/usr/lib64, and
// /usr/lib64/nvidia for negativo17's packages), NixOS (/run/opengl-driver),
// WSL, aarch64 servers.
constexpr const char* k_driver_dirs[] = {"/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/x86_64-linux-gnu",
                                         "/usr/lib/x86_64-linux-gnu/nvidia/current", "/usr/lib64", "/usr/lib64/nvidia",
                                         "/run/opengl-driver/lib", "/usr/lib/wsl/lib", "/usr/lib/aarch64-linux-gnu",
                                         "/usr/lib/aarch64-linux-gnu/nvidia/current",
                                         "/usr/lib/aarch64-linux-gnu/tegra", "/usr/lib/aarch64-linux-gnu/nvidia",  // L4T (Jetson)
                                         "/.singularity.d/libs"};  // Apptainer's --nv binds

// Mount point -> what was mounted there (mountinfo's fourth field, the path
// inside its source file system): the container toolkit bind-mounts each
// driver library it injects.
using MountSources = std::map<std::string, std::string>;

MountSources mount_sources(ProbeContext& context) {
  MountSources mounts;
  if (const auto* table = self_mounts(context))
    for (const auto& entry : *table) mounts.insert_or_assign(entry.mount_point, entry.root);
  return mounts;
}

// What a driver library is. Under WSL2 the toolkit mounts WSL's libraries
// from the driver store (/usr/lib/wsl/drivers/...) into the container's own
// library directory, named libcuda.so.1.1: those are WSL's, not a Linux
// driver package's, which always carries its driver version in the name.
// A library mounted over a standard directory keeps its origin in the mount
// source, so that is judged like the paths: a cuda-compat libcuda there is
// forward compatibility (errors 803/804), not a driver upgrade awaiting a reboot.
LibraryKind kind_of(const std::string& path, const std::string& real, const std::string& mount_source,
                    bool through_dxg, bool has_driver_version) {
  for (const auto* p : {&path, &real, &mount_source}) {
    if (contains(*p, "/stubs/")) return LibraryKind::stub;
    if (contains(*p, "/compat/") || contains(*p, "cuda-compat")) return LibraryKind::compat;
    if (p->starts_with("/usr/lib/wsl/") || contains(*p, "/lxss/lib/")) return LibraryKind::wsl;
  }
  if (through_dxg && !has_driver_version) return LibraryKind::wsl;
  return LibraryKind::driver;
}

ResolutionFacts resolution_facts(const Resolution& resolution) {
  ResolutionFacts facts;
  facts.name = resolution.name;
  if (resolution.path) {
    facts.path = *resolution.path;
    facts.via = std::string(enum_name(resolution.via));
  }
  facts.via_detail = resolution.via_detail;
  facts.requested_by = resolution.requested_by;
  for (const auto& attempt : resolution.tried) facts.tried.push_back({attempt.path, attempt.outcome});
  facts.fatal = resolution.fatal;
  return facts;
}

// The CUDA level a driver library provides, and for a cuda-compat libcuda
// which host branches it accepts: its ELF note first (what the library
// itself checks), then the forward-compatibility table (what NVIDIA supports).
void describe_driver_level(ProbeContext& context, DriverLibraryFacts& item, const std::string& real) {
  const auto version = Version::parse(*item.version);
  const CudaTables& tables = context.tables.cuda;
  item.branch = version->major();
  if (auto cuda = tables.cuda_for_branch(static_cast<int>(version->major()))) item.cuda = cuda->text();
  if (item.kind != LibraryKind::compat) return;
  for (const auto& note : read_section_notes(context.host, real, ".note.cuda.fwd_compatibility")) {
    boost::system::error_code error;
    auto payload = json::parse(note.desc.substr(0, note.desc.find('\0')), error);
    if (error || !payload.is_object()) continue;
    const auto& object = payload.as_object();
    if (const auto* cuda = object.if_contains("CUDA Version"); cuda && cuda->is_string()) item.cuda = printable(cuda->get_string(), 20);
    if (const auto* hosts = object.if_contains("Driver"); hosts && hosts->is_array()) item.accepts_host_branches = hosts->get_array();
    item.note = ".note.cuda.fwd_compatibility";
  }
  if (item.cuda) {
    std::vector<std::int64_t> supported;
    if (const auto parsed = Version::parse(*item.cuda))
      for (int host : tables.forward_compat_hosts(*parsed)) supported.push_back(host);
    item.supported_host_branches = std::move(supported);
  }
}

DriverLibraryFacts describe(ProbeContext& context, const DriverLibrary& library, const Resolution& resolution,
                            const std::optional<MountSources>& mounts) {
  DriverLibraryFacts item;
  static_cast<ResolutionFacts&>(item) = resolution_facts(resolution);
  item.found = resolution.path.has_value();
  if (!resolution.path) return item;
  const std::string real = real_path(context.host, *resolution.path);
  item.real_path = real;
  // Only a driver-style version (550.54.15) counts: WSL's libcuda.so.1.1 says nothing.
  const auto version = version_from_file_name(real, library.stem);
  if (version && Version::parse(*version)->major() >= 100) item.version = *version;
  if (mounts) {
    auto found = mounts->find(real);
    if (found == mounts->end()) found = mounts->find(*resolution.path);
    item.injected = found != mounts->end();
    if (found != mounts->end()) item.mount_source = printable(found->second, 300);
  }
  item.kind = kind_of(*resolution.path, real, item.mount_source.value_or(""),
                      platform_method(context.system.platform).through_dxg, item.version.has_value());
  if (item.version) describe_driver_level(context, item, real);
  return item;
}

// Paths in the driver directories whose names start with one of prefixes.
std::vector<std::string> driver_dir_files(Host& host, std::initializer_list<std::string_view> prefixes) {
  std::vector<std::string> paths;
  for (const char* dir : k_driver_dirs) {
    auto names = host.list_dir(dir);
    if (!names) continue;
    for (const auto& name : *names)
      if (std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view prefix) { return name.starts_with(prefix); }))
        paths.push_back(std::string(dir) + "/" + name);
  }
  return paths;
}

// libcuda files in driver directories that the loader never reached: neither
// the one it found nor one it tried (a damaged file it stopped at is on its path).
// Where it stopped at a damaged file, it never looked further: the files
// behind it may well be on its path, so none is said to lie elsewhere.
// A platform's driver share (WSL2's) holds one driver as copies: none of
// them is left over, and none may be removed.
std::vector<std::string> driver_files_elsewhere(Host& host, const DriverLibraryFacts& libcuda, const char* driver_share) {
  if (libcuda.fatal) return {};
  std::set<std::string> reached;
  if (libcuda.real_path) reached.insert(*libcuda.real_path);
  for (const auto& tried : libcuda.tried) reached.insert(real_path(host, tried.path));
  std::vector<std::string> found;
  const std::string share = driver_share ? std::string(driver_share) + "/" : std::string();
  for (auto& path : driver_dir_files(host, {"libcuda.so."})) {
    if (!share.empty() && path.starts_with(share)) continue;
    if (!reached.count(real_path(host, path))) found.push_back(std::move(path));
  }
  return found;
}

// Regular files (not links) at a driver library's name that are no ELF
// library. In an image they stay: the toolkit mounts the host's library
// beside them, and ldconfig never replaces a file that is not a link.
std::vector<DamagedLibraryFacts> damaged_driver_files(Host& host) {
  std::vector<DamagedLibraryFacts> damaged;
  for (const auto& path : driver_dir_files(host, {"libcuda.so", "libnvidia-ml.so"})) {
    if (host.read_link(path)) continue;
    const auto stat = host.stat(path);
    if (!stat || stat->type != FileType::regular) continue;
    const auto magic = host.read_range(path, 0, 4);
    if (magic && *magic == std::string_view("\x7f" "ELF", 4)) continue;
    if (damaged.size() < 16) damaged.push_back({printable(path, 300), static_cast<std::int64_t>(stat->size)});
  }
  return damaged;
}

std::vector<std::string> stub_files(Host& host) {
  std::vector<std::string> stubs;
  auto entries = host.list_dir("/usr/local");
  if (!entries) return stubs;
  for (const auto& entry : *entries) {
    if (!entry.starts_with("cuda")) continue;
    for (const char* sub : {"/lib64/stubs/libcuda.so", "/lib/stubs/libcuda.so", "/targets/x86_64-linux/lib/stubs/libcuda.so"}) {
      const std::string path = "/usr/local/" + entry + sub;
      if (!host.exists(path)) continue;
      std::string real = real_path(host, path);
      if (std::find(stubs.begin(), stubs.end(), real) == stubs.end()) stubs.push_back(std::move(real));
    }
  }
  return stubs;
}

// Installed and enabled is not running (NVSentinel #889: a fleet ran twenty days
// with it dead). The kernel keeps 15 bytes of a process's name: "nv-fabricmanage".
// Unknown where the processes could not all be seen (ProcessStates::complete).
constexpr std::string_view k_fabric_manager_command = "nv-fabricmanage";

void find_fabric_manager_process(const ProcessStates* states, FabricManagerFacts& facts) {
  if (!states || !states->complete) return;
  const auto* process = states->find_named(k_fabric_manager_command);
  facts.running = process != nullptr;
  if (process) facts.pid = process->pid;
}

// nvidia-fabricmanager-BRANCH up to R575, nvidia-fabricmanager from R580 (not -dev, not the -BRANCH-server transition).
bool is_fabric_manager_package(std::string_view name) {
  constexpr std::string_view k_name = "nvidia-fabricmanager";
  if (name == k_name) return true;
  if (!name.starts_with(k_name) || name.size() < k_name.size() + 2 || name[k_name.size()] != '-') return false;
  const auto branch = name.substr(k_name.size() + 1);
  return branch.find_first_not_of("0123456789") == std::string_view::npos;
}

// Where the nvidia-fabricmanager packages put the daemon and its unit; on a
// GPU Operator node the driver container carries and starts it.
FabricManagerFacts find_fabric_manager(Host& host, const ProcessStates* states, bool nvlsm_needed) {
  FabricManagerFacts facts;
  // Fourth-generation NVSwitches: nvidia-fabricmanager-start.sh starts NVLSM
  // first, which reaches the switches through ib_umad's devices.
  if (nvlsm_needed) {
    for (const char* program : {"/opt/nvidia/nvlsm/sbin/nvlsm", "/run/nvidia/driver/opt/nvidia/nvlsm/sbin/nvlsm"})
      if (host.exists(program)) {
        facts.nvlsm_program = std::string(program);
        break;
      }
    facts.ib_umad = host.exists("/sys/module/ib_umad");
  }
  for (const char* program : {"/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager", "/run/nvidia/driver/usr/bin/nv-fabricmanager"})
    if (host.exists(program)) {
      facts.program = std::string(program);
      facts.in_driver_container = std::string_view(program).starts_with("/run/nvidia/driver/");
      break;
    }
  const auto unit = find_systemd_unit(host, "nvidia-fabricmanager.service");
  facts.unit.value = unit.path;
  facts.enabled = unit.enabled;
  facts.masked = unit.masked;
  find_fabric_manager_process(states, facts);
  // Its package's version: what Fabric Manager would refuse the driver with, before it is asked to start.
  if (facts.program && !facts.in_driver_container)
    if (auto package = find_installed_deb(host, is_fabric_manager_package)) {
      facts.package = std::move(package->name);
      facts.package_version = std::move(package->upstream_version);
    }
  if (facts.program) facts.log = read_fabric_manager_log(host, facts.running);
  return facts;
}

// How many devices cuDeviceGetCount should give this workload, where that
// can be known: what CUDA_VISIBLE_DEVICES selects, else the GPU nodes a
// container was given, else the GPUs on a host's PCI bus that no VM holds.
// MIG changes what CUDA enumerates, so with MIG on it is not known.
std::optional<std::int64_t> expected_cuda_devices(const ProbeContext& context, const DriverLibsFacts& facts) {
  if (facts.nvml_probe)
    for (const auto& device : facts.nvml_probe->devices)
      if (device.mig_mode == Setting::Enabled) return std::nullopt;
  if (const auto& visible = context.device_nodes.cuda_visible_devices)
    return visible->mig_entries > 0 ? std::nullopt : std::optional(visible->selected);
  std::int64_t count = 0;
  if (context.container.in_container) {
    count = context.device_nodes.gpu_node_count;
  } else {
    std::int64_t for_vms = 0;
    for (const auto& gpu : context.hardware.gpus) (gpu.driver_kind == DriverKind::passthrough ? for_vms : count) += 1;
    // The operator's count (--expect) covers GPUs gone from the bus too: CUDA should see them all.
    if (context.hardware.expected_gpus) count = std::max(count, *context.hardware.expected_gpus - for_vms);
  }
  return count > 0 ? std::optional(count) : std::nullopt;
}

}  // namespace

Probed<DriverLibsFacts> probe_driver_libs(ProbeContext& context) {
  Probed<DriverLibsFacts> layer;
  auto& facts = layer.facts;
  // Every layer below is read: the driver may now be asked (it may create
  // nodes or load nvidia_uvm, as any CUDA program's first start does), ahead,
  // beside the reading of the rest. nvidia-smi where a driver should answer
  // (a module loaded, or WSL2's /dev/dxg); the driver itself, in a child,
  // wherever a program could load it, even when the layers below look broken:
  // under WSL2, gVisor and some VMs the PCI and module view is missing while CUDA works.
  const auto& platform = platform_method(context.system.platform);
  auto smi = find_on_path(context.host, "nvidia-smi");
  // WSL's own, which sudo and ssh sessions do not put on PATH: still the driver's to ask.
  const bool smi_off_path = !smi && platform.driver_share && context.host.exists(std::string(platform.driver_share) + "/nvidia-smi");
  if (smi_off_path) smi = std::string(platform.driver_share) + "/nvidia-smi";
  const bool may_ask = context.host.mode() != HostMode::root && !context.options.image;
  const bool driver_expected = (context.kernel_module.loaded && *context.kernel_module.loaded) ||
                               (platform.through_dxg && context.device_nodes.dxg_present);
  DriverAnswers::Plan plan;
  if (smi && driver_expected && may_ask) plan.nvidia_smi = *smi;
  plan.nvml_first = context.options.gpu_table;
  // Without the driver's own children (--no-probe) nvidia-smi is all that
  // waits on the driver: it starts before the loader's search, not after.
  const bool smi_alone = !(context.options.driver_probe && may_ask);
  if (smi_alone) context.driver_answers.begin(context.host, plan);
  LoadSimulation simulation(context.host, host_loader_config(context));
  facts.program_runpath = driver_runpath_of_programs(context.host);
  simulation.load_plain_program(facts.program_runpath);
  // Whether a library was injected only means something in a container.
  std::optional<MountSources> mounts;
  if (context.container.in_container) mounts = mount_sources(context);
  for (const auto& library : k_libraries) {
    const auto before = simulation.resolutions().size();
    const auto resolution = simulation.dlopen(library.name, k_plain_program);
    facts.libraries.push_back(describe(context, library, resolution, mounts));
    // What it needs in turn and the loader cannot find: dlopen fails for all that it found itself
    // (Jetson's libcuda needs L4T's libnvrm_*, which a container or a bind list may leave out).
    const auto& all = simulation.resolutions();
    auto& needs_missing = facts.libraries.back().needs_missing;
    for (auto index = before; resolution.path && index < all.size() && needs_missing.size() < 16; ++index)
      if (!all[index].path) needs_missing.push_back(printable(all[index].name, 120));
  }
  // Some programs ask for the unversioned name, which only the driver's
  // development link or the toolkit's stub carries.
  facts.unversioned_libcuda = describe(context, {"libcuda.so", "libcuda.so"}, simulation.dlopen("libcuda.so", k_plain_program), mounts);
  layer.source(&DriverLibsFacts::unversioned_libcuda, "dlopen search: LD_LIBRARY_PATH, /etc/ld.so.cache, default directories");
  const auto& libcuda = facts.libraries.front();
  layer.source(&DriverLibsFacts::libraries, "dlopen search: LD_LIBRARY_PATH, /etc/ld.so.cache, default directories");
  if (smi_off_path) facts.nvidia_smi_off_path = *smi;
  else if (smi) facts.nvidia_smi = *smi;
  layer.source(&DriverLibsFacts::nvidia_smi, "PATH");
  if (facts.nvidia_smi_off_path) layer.source(&DriverLibsFacts::nvidia_smi_off_path, "the platform's driver share");
  // The driver's own children are the slowest: cuInit first, then NVML, then nvidia-smi.
  if (!smi_alone) {
    plan.cuda = libcuda.found;
    plan.smoke = context.options.smoke;
    plan.nvml = facts.libraries[1].found;
    context.driver_answers.begin(context.host, plan);
  }
  // Every process's state, read while the driver's children run (about 20 us
  // a process); finish_driver_libs reads its D-state ones again after them.
  // A --root tree's processes are not this machine's.
  if (!context.options.image && !context.options.gpu_table && context.host.mode() != HostMode::root) {
    const std::string_view named[] = {k_fabric_manager_command};
    context.process_states = read_process_states(context.host, named);
  }
  facts.libcuda_elsewhere = driver_files_elsewhere(context.host, libcuda, platform.driver_share);
  facts.stubs = stub_files(context.host);
  // MPS: its clients share a GPU that is Exclusive_Process through the control
  // daemon's pipe (nvidia-cuda-mps-control(1): CUDA_MPS_PIPE_DIRECTORY, else /tmp/nvidia-mps).
  const auto pipe_directory = context.host.env("CUDA_MPS_PIPE_DIRECTORY");
  const std::string control = (pipe_directory && !pipe_directory->empty() ? *pipe_directory : std::string("/tmp/nvidia-mps")) + "/control";
  if (context.host.exists(control)) {
    facts.mps_control = printable(control, 300);
    layer.source(&DriverLibsFacts::mps_control, facts.mps_control.value());
  }
  // An NVSwitch system's host (a container cannot see the host's daemons).
  const bool gen4_nvswitches = !context.hardware.nvswitch_management_ports.empty();
  const bool nvswitches = context.hardware.nvswitch_count > 0 || context.host.exists("/dev/nvidia-nvswitchctl") || gen4_nvswitches;
  if (nvswitches && !context.container.in_container && !context.options.image) {
    facts.fabric_manager = find_fabric_manager(context.host, context.process_states ? &*context.process_states : nullptr, gen4_nvswitches);
    layer.source(&DriverLibsFacts::fabric_manager, gen4_nvswitches ? "/usr/bin/nv-fabricmanager, nvidia-fabricmanager.service, /opt/nvidia/nvlsm/sbin/nvlsm, /sys/module/ib_umad"
                                                   : "/usr/bin/nv-fabricmanager, nvidia-fabricmanager.service");
  }
  // A vGPU guest: the GRID guest driver brings nvidia-gridd, which licenses it.
  for (const char* program : {"/usr/bin/nvidia-gridd", "/usr/sbin/nvidia-gridd"})
    if (!facts.vgpu_gridd && context.host.exists(program)) facts.vgpu_gridd = program;
  if (facts.vgpu_gridd && context.host.exists("/etc/nvidia/gridd.conf")) facts.vgpu_gridd_conf = "/etc/nvidia/gridd.conf";
  if (facts.vgpu_gridd) layer.source(&DriverLibsFacts::vgpu_gridd, "/usr/bin/nvidia-gridd, /etc/nvidia/gridd.conf");
  if (context.options.image) {
    facts.damaged_libraries = damaged_driver_files(context.host);
    layer.source(&DriverLibsFacts::damaged_libraries, "the driver directories");
  }
  // A GPU Operator node: the driver lives in its container's root, not on the host.
  if (!context.container.in_container && !context.options.image) {
    facts.driver_container = find_driver_container(context.host);
    if (facts.driver_container) layer.source(&DriverLibsFacts::driver_container, "/run/nvidia/driver, /run/nvidia/validations");
  }
  const auto& config = simulation.config();
  if (config.ld_library_path) facts.ld_library_path = printable(*config.ld_library_path, 400);
  layer.source(&DriverLibsFacts::ld_library_path, "env LD_LIBRARY_PATH");
  facts.ld_so_cache = config.cache ? config.cache->layout : printable(config.cache_problem, 200);
  layer.source(&DriverLibsFacts::ld_so_cache, "/etc/ld.so.cache");

  return layer;
}

namespace {

void take_nvidia_smi(ProbeContext& context, Probed<DriverLibsFacts>& layer) {
  auto& facts = layer.facts;
  const auto& smi = context.driver_answers.nvidia_smi();
  if (!smi) return;
  facts.nvidia_smi_run = *smi;
  const auto& program = facts.nvidia_smi ? *facts.nvidia_smi : facts.nvidia_smi_off_path.value_or("nvidia-smi");
  layer.source(&DriverLibsFacts::nvidia_smi_run, program + " --query-gpu");
  count_mig_instances(context, *facts.nvidia_smi_run);
  // A lost GPU is named by its model from the PCI bus, which still lists it.
  for (auto& lost : facts.nvidia_smi_run->lost_gpus)
    for (const auto& gpu : context.hardware.gpus)
      if (gpu.bdf == sysfs_pci_address(lost.bus_id)) lost.name = gpu.name;
}

void take_cuda_probe(ProbeContext& context, Probed<DriverLibsFacts>& layer) {
  if (const auto& probe = context.driver_answers.cuda_probe()) {
    layer.facts.cuda_probe = *probe;
    layer.source(&DriverLibsFacts::cuda_probe, "a child process: dlopen(libcuda.so.1), cuInit");
  }
}

void take_nvml_probe(ProbeContext& context, Probed<DriverLibsFacts>& layer) {
  if (const auto& probe = context.driver_answers.nvml_probe()) {
    layer.facts.nvml_probe = *probe;
    layer.source(&DriverLibsFacts::nvml_probe, "a child process: dlopen(libnvidia-ml.so.1), nvmlInit");
  }
}

// `gpudoctor gpus`: the first evidence that lists GPUs ends the asking.
void take_answers_for_gpu_table(ProbeContext& context, Probed<DriverLibsFacts>& layer) {
  take_nvml_probe(context, layer);
  if (gpu_list_source(layer.facts) == GpuListSource::nvml) return;
  take_nvidia_smi(context, layer);
  if (gpu_list_source(layer.facts) == GpuListSource::nvidia_smi) return;
  take_cuda_probe(context, layer);
}

}  // namespace

void finish_driver_libs(ProbeContext& context, Probed<DriverLibsFacts>& layer) {
  auto& facts = layer.facts;
  const auto& libcuda = facts.libraries.front();
  if (context.options.gpu_table) {
    take_answers_for_gpu_table(context, layer);
  } else {
    take_nvidia_smi(context, layer);
    take_cuda_probe(context, layer);
    take_nvml_probe(context, layer);
  }
  if (context.options.smoke) facts.smoke_not_run = why_no_smoke(context, facts);
  // After every child was taken: gpudoctor's own, in the driver a moment ago, are gone.
  if (context.process_states) {
    const auto& log = context.kernel_module.kernel_log;
    facts.processes = finish_process_scan(context.host, *context.process_states, log ? &*log : nullptr,
                                          facts.nvml_probe ? &*facts.nvml_probe : nullptr, !context.container.in_container);
    layer.source(&DriverLibsFacts::processes, "/proc/*/stat; for a process in D state its wchan and fd; the kernel log's hung tasks");
  }
  facts.gpu_list_source = gpu_list_source(facts);
  layer.source(&DriverLibsFacts::gpu_list_source, "nvml_probe, nvidia_smi_run, cuda_probe, else the hardware layer");
  facts.cuda_expected_devices = expected_cuda_devices(context, facts);
  if (facts.nvml_probe)
    for (const auto& device : facts.nvml_probe->devices)
      if (device.recovery_action == Action::none && device.bus_id) facts.recovery_not_needed.push_back(sysfs_pci_address(*device.bus_id));
  if (facts.cuda_expected_devices)
    layer.source(&DriverLibsFacts::cuda_expected_devices, "CUDA_VISIBLE_DEVICES, the device nodes given to this workload, the GPUs on the PCI bus");

  if (libcuda.found) {
    layer.status = Status::ok;
    layer.summary = "libcuda.so.1 -> " + *libcuda.real_path + " (" + std::string(enum_name(*libcuda.kind)) +
                    (libcuda.version ? " " + *libcuda.version : std::string()) + ", via " + *libcuda.via + ")";
  } else if (facts.driver_container && facts.driver_container->libcuda) {
    layer.status = Status::ok;
    layer.summary = "the GPU Operator's driver container: " + *facts.driver_container->libcuda.value +
                    " (the host has no driver libraries of its own)";
  } else {
    layer.summary = "no libcuda.so.1 for a program to load";
  }
  if (const auto& probe = facts.cuda_probe; probe && probe->status == ChildStatus::ok && probe->init_result) {
    layer.summary += *probe->init_result == 0 ? "; cuInit: " + std::to_string(probe->devices.size()) + " device(s)" +
                                                    (probe->cuda_version ? ", CUDA " + *probe->cuda_version : std::string())
                                              : "; cuInit: " + probe->init_error.value_or("error " + std::to_string(*probe->init_result));
  } else if (probe && probe->status != ChildStatus::ok && probe->status != ChildStatus::not_recorded) {
    layer.summary += std::string("; driver probe: ") + enum_name(probe->status);
  }
}

GpuListSource gpu_list_source(const DriverLibsFacts& facts) {
  const auto answered = [](const auto& probe) {
    return probe && probe->status == ChildStatus::ok && probe->init_result == 0 && !probe->devices.empty();
  };
  if (answered(facts.nvml_probe)) return GpuListSource::nvml;
  if (facts.nvidia_smi_run && facts.nvidia_smi_run->status == ChildStatus::ok && !facts.nvidia_smi_run->gpus.empty())
    return GpuListSource::nvidia_smi;
  if (answered(facts.cuda_probe)) return GpuListSource::cuda;
  return GpuListSource::files;
}

}  // namespace gd
