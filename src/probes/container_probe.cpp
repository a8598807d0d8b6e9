#include "probes/container_probe.h"

#include "platforms/container_engine.h"
#include "probes/cdi_refresh_guard.h"
#include "probes/cdi_specs.h"
#include "probes/containerd_daemon.h"
#include "probes/crio_daemon.h"
#include "probes/docker_daemon.h"
#include "probes/engine_configs.h"
#include "probes/mountinfo.h"
#include "probes/nvidia_env.h"
#include "probes/nvidia_require.h"
#include "tables/cuda_tables.h"
#include "util/version.h"
#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

struct Detection {
  EngineDetection engines;
  // A marker that the rest of the evidence outweighs, and that evidence.
  std::vector<std::string> discounted;
  std::optional<std::string> own_root;
};

// "/" mounted as the whole of a disk's file system (root "/" of /dev/vda,
// /dev/nvme0n1p2, /dev/mapper/...): the machine's own root. No engine gives a
// container that: Docker and podman mount an overlay, a btrfs or zfs
// subvolume, a devicemapper volume's /rootfs, or a directory.
std::optional<std::string> own_root_file_system(ProbeContext& context) {
  const auto* mounts = self_mounts(context);
  if (!mounts) return std::nullopt;
  const MountEntry* root = nullptr;
  for (const auto& mount : *mounts)
    if (mount.mount_point == "/") root = &mount;  // a later mount covers an earlier one
  static constexpr std::string_view k_disk_file_systems[] = {"ext4", "ext3", "ext2", "xfs", "btrfs", "f2fs", "jfs"};
  if (!root || root->root != "/" || !root->source.starts_with("/dev/") ||
      std::find(std::begin(k_disk_file_systems), std::end(k_disk_file_systems), root->fstype) == std::end(k_disk_file_systems))
    return std::nullopt;
  return "/ is " + printable(root->fstype, 20) + " from " + printable(root->source, 80) + ", the whole file system of a disk";
}

// A file an image keeps (/.dockerenv) is the only marker: a VM or host
// booted from an image built FROM a Docker image has it too. Against the
// machine's own root file system it is outweighed.
void weigh_markers(ProbeContext& context, Detection& found) {
  auto& markers = found.engines.markers;
  if (markers.size() != 1 || markers[0].strength != MarkerStrength::image_file) return;
  found.own_root = own_root_file_system(context);
  if (!found.own_root) return;
  found.discounted.push_back(markers[0].evidence);
  markers.clear();
  found.engines.found.clear();
}

void detect_injection(ProbeContext& context, Probed<ContainerFacts>& layer) {
  Host& host = context.host;
  std::vector<std::string> evidence;
  std::optional<Injection> injection;
  if (const auto* table = self_mounts(context)) {
    const auto& mounts = *table;
    const auto any = [&mounts](auto test) { return std::any_of(mounts.begin(), mounts.end(), test); };
    if (any([](const MountEntry& m) { return m.mount_point == "/proc/driver/nvidia" && m.fstype == "tmpfs"; })) {
      injection = Injection::legacy;
      evidence.emplace_back("/proc/driver/nvidia is a tmpfs (nvidia-container-cli)");
    } else if (context.hardware.integrated_gpu && any([](const MountEntry& m) {
                 return m.mount_point.starts_with("/usr/lib/aarch64-linux-gnu/tegra/") ||
                        m.mount_point.starts_with("/usr/lib/aarch64-linux-gnu/nvidia/");
               })) {
      // Jetson: the runtime's CSV mode bind-mounts L4T's libraries one by one.
      injection = Injection::csv;
      evidence.emplace_back("L4T driver libraries are bind-mounted (the NVIDIA runtime's CSV mode)");
    } else if (any([](const MountEntry& m) { return m.root.starts_with("/usr/lib/wsl/drivers/"); })) {
      // On WSL2 nvidia-container-cli skips the procfs mount and bind-mounts
      // driver-store files instead.
      injection = Injection::legacy;
      evidence.emplace_back("driver-store files from /usr/lib/wsl/drivers are mounted (nvidia-container-cli on WSL2)");
    }
  }
  if (auto dir = host.env("NVIDIA_CTK_LIBCUDA_DIR")) {
    if (!injection) injection = Injection::cdi;
    evidence.push_back("env NVIDIA_CTK_LIBCUDA_DIR=" + printable(*dir, 100));
  }
  if (auto conf = host.list_dir("/etc/ld.so.conf.d")) {
    for (const auto& name : *conf) {
      if (!name.starts_with("00-nvcr-") && !name.starts_with("00-compat-")) continue;
      if (!injection) injection = Injection::cdi;
      evidence.push_back("/etc/ld.so.conf.d/" + printable(name, 80) + " (nvidia-cdi-hook)");
    }
  }
  // Apptainer's --nv binds each host library into /.singularity.d/libs (nvliblist.conf names them).
  if (const auto& libs = layer.facts.apptainer_libs; !injection && libs) {
    for (const auto& name : *libs)
      if (name.starts_with("libcuda.so")) {
        injection = Injection::apptainer_nv;
        evidence.push_back("/.singularity.d/libs/" + name + " (apptainer --nv)");
        break;
      }
  }
  const bool has_nodes = host.device("/dev/nvidiactl").has_value() || host.device("/dev/dxg").has_value() ||
                         (context.hardware.integrated_gpu && host.device("/dev/nvmap").has_value());
  if (!injection) injection = has_nodes ? Injection::unknown : Injection::none;
  if (injection == Injection::unknown) evidence.emplace_back("GPU device nodes present, but no toolkit traces (--device or --privileged?)");
  layer.facts.injection = injection;
  layer.facts.injection_evidence = std::move(evidence);
  layer.facts.gpu_nodes_present = has_nodes;
  layer.source(&ContainerFacts::injection, std::string(k_self_mountinfo));
  layer.source(&ContainerFacts::gpu_nodes_present, "/dev");
}

// "0 0 4294967295" is the initial namespace; anything else maps a part of
// the ids, and ids outside it (the host's video group) show as 65534.
void read_user_namespace(Host& host, Probed<ContainerFacts>& layer) {
  auto map = host.read_file("/proc/self/uid_map", 4096);
  if (!map) return;
  const auto first = trim(std::string_view(*map).substr(0, map->find('\n')));
  std::vector<std::string_view> fields;
  for (auto field : split(first, ' '))
    if (!field.empty()) fields.push_back(field);
  if (fields.size() != 3) {
    layer.note_unreadable("/proc/self/uid_map", "not 'inside outside count'", printable(first, 80));
    return;
  }
  layer.facts.uid_map = printable(std::string(fields[0]) + " " + std::string(fields[1]) + " " + std::string(fields[2]), 80);
  layer.facts.user_namespace = !(fields[0] == "0" && fields[1] == "0" && fields[2] == "4294967295");
  layer.source(&ContainerFacts::user_namespace, "/proc/self/uid_map");
  layer.source(&ContainerFacts::uid_map, "/proc/self/uid_map");
}

// The device plugin's volume-mounts strategy (accept-nvidia-visible-devices-
// as-volume-mounts): NVIDIA_VISIBLE_DEVICES names the directory, and each
// requested device is an entry mounted below it.
void read_volume_mount_devices(Host& host, VisibleDevices& visible) {
  if (visible.mode != VisibleMode::volume_mounts) return;
  std::vector<DeviceSelector> entries;
  if (auto names = host.list_dir(k_volume_mount_devices))
    for (const auto& name : *names)
      if (entries.size() < 1024) entries.push_back({.value = printable(name, 60), .kind = SelectorKind::volume_mount});
  visible.entries = std::move(entries);
}

// NVIDIA_REQUIRE_* against this host's driver and GPUs; and whether the
// runtime that fails the check would still run through minor-version
// compatibility (the toolkit's strict >= ignores it).
Requirements check_requirements(ProbeContext& context) {
  const auto& kernel = context.kernel_module;
  RequireFacts facts{kernel.version, kernel.driver_cuda, {}};
  for (const auto& gpu : context.hardware.gpus) facts.gpus.push_back({gpu.compute_capability.value_or(""), gpu.brand});
  auto result = evaluate_requirements(context.host.env_with_prefix("NVIDIA_REQUIRE_"), context.host.env("CUDA_VERSION"),
                                      context.host.env("NVIDIA_DISABLE_REQUIRE"), facts);
  if (result.required_cuda && facts.cuda && facts.driver) {
    const auto wanted = Version::parse(*result.required_cuda), have = Version::parse(*facts.cuda);
    const auto minimum = wanted ? context.tables.cuda.mvc_minimum(static_cast<int>(wanted->major())) : std::nullopt;
    result.mvc_would_run = wanted && have && minimum && wanted->major() == have->major() &&
                              Version::parse(*facts.driver) >= minimum;
  }
  return result;
}

// "Docker (default runtime nvidia), containerd (default runtime runc), CRI-O (default runtime crun), podman,
// 2 OCI hooks (NVIDIA's among them), NVIDIA Container Toolkit (mode auto)".
// A file that is there but was not read (noted) gives no defaults to print.
std::string engines_summary(const EngineFacts& engines, const std::vector<Unreadable>& unread) {
  std::string summary;
  auto add = [&summary](const std::string& part) { summary += (summary.empty() ? "" : ", ") + part; };
  auto read = [&unread](const std::optional<std::string>& config) {
    return !config || std::none_of(unread.begin(), unread.end(), [&](const Unreadable& note) { return note.path == *config; });
  };
  if (engines.docker) add(read(engines.docker->config) ? "Docker (default runtime " + engines.docker->default_runtime + ")" : "Docker (daemon.json not read)");
  if (engines.docker_rootless)
    add(read(engines.docker_rootless->config) ? "rootless Docker (default runtime " + engines.docker_rootless->default_runtime + ")"
                                              : "rootless Docker (daemon.json not read)");
  for (const auto& containerd : engines.containerd)
    add("containerd" + (containerd.release ? " " + *containerd.release : std::string()) +
        (containerd.refused ? " (does not start)" : " (default runtime " + containerd.default_runtime + ")"));
  if (engines.crio) add(engines.crio->default_runtime ? "CRI-O (default runtime " + *engines.crio->default_runtime + ")" : "CRI-O");
  if (engines.oci_hooks && engines.oci_hooks->podman) add("podman");
  if (engines.oci_hooks && !engines.oci_hooks->hooks.empty()) {
    const auto& hooks = engines.oci_hooks->hooks;
    const bool nvidia = std::any_of(hooks.begin(), hooks.end(), [](const OciHookFile& hook) { return hook.nvidia; });
    add(std::to_string(hooks.size()) + (hooks.size() == 1 ? " OCI hook" : " OCI hooks") + (nvidia ? " (NVIDIA's among them)" : ""));
  }
  if (engines.toolkit)
    add(read(engines.toolkit->config) ? concat({"NVIDIA Container Toolkit (mode ", enum_name(engines.toolkit->mode), ")"})
                                      : std::string("NVIDIA Container Toolkit (config.toml not read)"));
  return summary;
}

}  // namespace

Probed<ContainerFacts> probe_container(ProbeContext& context) {
  Probed<ContainerFacts> layer;
  layer.status = Status::skip;
  auto& facts = layer.facts;
  // An image (--image) is judged before it runs: in a RUN step the build
  // sandbox's markers (/.dockerenv) describe `docker build`, not the image.
  Detection detection;
  if (!context.options.image) detection.engines = detect_container_engines(context.host);
  weigh_markers(context, detection);
  const auto& markers = detection.engines.markers;
  facts.in_container = !markers.empty();
  if (!detection.discounted.empty()) {
    facts.discounted_markers = detection.discounted;
    facts.own_root = detection.own_root;
    layer.source(&ContainerFacts::own_root, std::string(k_self_mountinfo));
  }
  if (facts.in_container) {
    facts.runtime = markers.front().engine;
    facts.runtime_named = markers.front().named;
  }
  for (const auto& marker : markers) facts.markers.push_back(marker.evidence);
  // The variables are read on a host too: a Dockerfile check (--root) or a
  // mistaken export are worth showing, but only a container acts on them.
  facts.visible_devices = parse_visible_devices(context.host.env("NVIDIA_VISIBLE_DEVICES"));
  read_volume_mount_devices(context.host, facts.visible_devices);
  facts.driver_capabilities = parse_driver_capabilities(context.host.env("NVIDIA_DRIVER_CAPABILITIES"));
  facts.expected_injection = expected_injection(facts.driver_capabilities);
  facts.gpu_requested = facts.visible_devices.requests_gpu();
  facts.require = check_requirements(context);
  layer.source(&ContainerFacts::gpu_requested, "env NVIDIA_VISIBLE_DEVICES");
  layer.source(&ContainerFacts::visible_devices, "env NVIDIA_VISIBLE_DEVICES");
  layer.source(&ContainerFacts::driver_capabilities, "env NVIDIA_DRIVER_CAPABILITIES");
  layer.source(&ContainerFacts::require, "env NVIDIA_REQUIRE_*, CUDA_VERSION, NVIDIA_DISABLE_REQUIRE");
  // What every CDI container started here would get (read on hosts and in containers alike).
  if (!context.options.image)
    if (auto specs = read_cdi_specs(context, layer, facts.in_container); !specs.empty()) {
      facts.cdi_specs = std::move(specs);
      facts.cdi_refresh = cdi_refresh_state(context.host);
      layer.source(&ContainerFacts::cdi_refresh, "/etc/systemd/system, /usr/lib/systemd/system: nvidia-cdi-refresh.path");
    }
  // A GPU table (`gpus`) needs no engine: their files are not read, their daemons not asked.
  if (!facts.in_container && !context.options.image && !context.options.gpu_table) {
    // The service that writes /var/run/cdi/nvidia.yaml, where it will run at all.
    if ((facts.cdi_refresh_guard = read_cdi_refresh_guard(context.host, context.system.kernel_release, layer, facts.cdi_refresh)))
      layer.source(&ContainerFacts::cdi_refresh_guard, "nvidia-cdi-refresh.service's ExecCondition, /lib/modules/RELEASE/modules.dep");
    if (auto engines = read_engine_configs(context.host, layer); !engines.empty()) {
      facts.engines = std::move(engines);
      // The running dockerds, containerds and crio, asked ahead: their answers are taken by finish_container.
      auto ask_ahead = [&](const std::optional<ChildRequest>& request) {
        if (request) context.host.ask_ahead(*request);
      };
      if (facts.engines->docker) ask_ahead(docker_info_request(facts.engines->docker->socket));
      if (facts.engines->docker_rootless) ask_ahead(docker_info_request(facts.engines->docker_rootless->socket));
      for (const auto& containerd : facts.engines->containerd) ask_ahead(cri_status_request(containerd.socket));
      if (facts.engines->crio) ask_ahead(crio_config_request(facts.engines->crio->socket));
    }
  }
  if (!facts.in_container) {
    layer.summary = "not in a container";
    if (facts.own_root) layer.summary += " (" + facts.discounted_markers.front() + " is there, but " + *facts.own_root + ")";
    if (facts.cdi_specs) layer.summary += "; " + std::to_string(facts.cdi_specs->size()) + " NVIDIA CDI spec(s) for the engines here";
    if (facts.engines) layer.summary += "; " + engines_summary(*facts.engines, layer.unreadable);
    return layer;
  }
  read_user_namespace(context.host, layer);
  for (const EngineMethod* engine : detection.engines.found)
    if (engine->contribute) engine->contribute(context.host, layer);
  detect_injection(context, layer);
  layer.status = Status::ok;
  const auto& engine = markers.front();
  layer.summary = engine.named.value_or(enum_name(engine.engine)) + " container, GPU injection: " + enum_name(*facts.injection) + ", NVIDIA_VISIBLE_DEVICES " +
                  enum_name(facts.visible_devices.mode);
  return layer;
}

void finish_container(ProbeContext& context, Probed<ContainerFacts>& layer) {
  auto& engines = layer.facts.engines;
  if (!engines) return;
  auto& from = layer.sources[fact_name(layer.facts, &ContainerFacts::engines)];
  // Each daemon asked is a source: what was asked, on which socket.
  auto asked = [&](const auto& engine, std::string_view call) {
    if (engine.daemon) from += concat({from.empty() ? "" : ", ", call, " on ", *engine.socket});
  };
  auto ask = [&](auto& docker) {
    docker.daemon = ask_docker_daemon(context.host, docker.socket);
    asked(docker, "GET /info");
  };
  if (engines->docker) ask(*engines->docker);
  if (engines->docker_rootless) ask(*engines->docker_rootless);
  for (auto& containerd : engines->containerd) {
    ask_containerd_daemon(context.host, containerd);
    asked(containerd, "CRI status");
  }
  if (engines->crio) {
    ask_crio_daemon(context.host, *engines->crio);
    asked(*engines->crio, "GET /config");
  }
}

}  // namespace gd
