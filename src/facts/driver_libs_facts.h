#pragma once
// Layer 5, driver-libs: the driver's userspace libraries as a program's
// dlopen would find them.

#include "facts/driver_probe_facts.h"
#include "model/fact_fields.h"
#include "model/gpu_list_source.h"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

struct TriedPathFacts {
  std::string path, outcome;

  template <class F>
  void fields(F& f) const {
    f("path", path, "a path the loader considered");
    f("outcome", outcome, "what it found there");
  }
};

// One dlopen by name, as the loader would do it.
struct ResolutionFacts {
  std::string name;
  Nullable<std::string> path, via;
  std::string via_detail, requested_by;
  std::vector<TriedPathFacts> tried;
  std::optional<std::string> fatal;

  template <class F>
  void fields(F& f) const {
    f("name", name, "the name asked for, libcuda.so.1", FreeText{});
    f("path", path, "where the loader finds it; null: not found");
    f("via", via, "ld_library_path, ld.so.cache, default, rpath, runpath, ...");
    f("via_detail", via_detail, "which entry, e.g. \"LD_LIBRARY_PATH entry 1 (/usr/local/cuda/lib64)\"");
    f("requested_by", requested_by, "the program or library asking");
    f("tried", tried, "every path considered, in order");
    f("fatal", fatal, "the loader would abort here, and why");
  }
};

// What a driver library found is: the host driver's, a cuda-compat copy, a
// toolkit stub (link-time only), or WSL's (from the Windows driver).
enum class LibraryKind { driver, compat, stub, wsl };
template <>
struct EnumTable<LibraryKind> {
  static constexpr std::array names{"driver", "compat", "stub", "wsl"};
};

struct DriverLibraryFacts : ResolutionFacts {
  bool found = false;
  std::optional<std::string> real_path, version;
  std::optional<LibraryKind> kind;
  std::optional<bool> injected;
  std::optional<std::string> mount_source;
  std::optional<std::int64_t> branch;
  std::optional<std::string> cuda, note;
  std::optional<boost::json::array> accepts_host_branches;
  std::optional<std::vector<std::int64_t>> supported_host_branches;
  std::vector<std::string> needs_missing;

  template <class F>
  void fields(F& f) const {
    ResolutionFacts::fields(f);
    f("found", found, "the loader finds it");
    f("needs_missing", needs_missing,
      "libraries it needs (its DT_NEEDED and theirs) that the loader does not find: dlopen of it fails though it is found (the first 16)");
    f("real_path", real_path, "the file after every symlink");
    f("source", real_path, "the file after every symlink (for evidence)");
    f("kind", kind, "driver, compat (cuda-compat), stub (toolkit stubs/) or wsl");
    f("version", version, "driver version from the real file name, 550.54.15");
    f("injected", injected, "in a container: a bind mount of the toolkit's");
    f("mount_source", mount_source, "in a container: what was mounted there (mountinfo's root field), e.g. a WSL driver-store file");
    f("branch", branch, "the version's major");
    f("cuda", cuda, "the CUDA version it provides (a compat library's own note, else the branch table)");
    f("accepts_host_branches", accepts_host_branches, "compat: host branches its .note.cuda.fwd_compatibility accepts");
    f("note", note, "compat: the ELF note read");
    f("supported_host_branches", supported_host_branches, "compat: host branches NVIDIA's table supports");
  }
};

// One GPU as nvidia-smi --query-gpu reports it; absent fields were [N/A].
struct SmiGpu {
  std::optional<std::int64_t> index, memory_total_mib, memory_used_mib, mig_gpu_instances, mig_compute_instances;
  std::optional<std::string> driver_version, name, uuid, bus_id, compute_capability;
  std::optional<Setting> mig_mode, persistence_mode;
  std::optional<ComputeMode> compute_mode;
  // An exclusive GPU where NVML is not asked: --query-compute-apps.
  std::optional<std::int64_t> processes;
  std::optional<std::vector<GpuProcessFacts>> process_list;

  template <class F>
  void fields(F& f) const {
    f("index", index, "nvidia-smi's index");
    f("driver_version", driver_version, "the driver version it reports");
    f("name", name, "the product name");
    f("uuid", uuid, "GPU-...");
    f("bus_id", bus_id, "00000000:1B:00.0");
    f("compute_capability", compute_capability, "compute_cap (drivers from 510)");
    f("memory_total_mib", memory_total_mib, "memory.total, MiB");
    f("memory_used_mib", memory_used_mib, "memory.used, MiB");
    f("mig_mode", mig_mode, "mig.mode.current");
    f("mig_gpu_instances", mig_gpu_instances, "MIG on: the gi* entries of /proc/driver/nvidia/capabilities/gpuMINOR/mig (null: not readable here)");
    f("mig_compute_instances", mig_compute_instances, "MIG on: their ci* entries, one per compute instance CUDA can use");
    f("persistence_mode", persistence_mode, "persistence_mode");
    f("compute_mode", compute_mode, "compute_mode");
    f("processes", processes, "an Exclusive GPU where NVML was not asked (static build, --no-probe): compute processes on it, "
      "from --query-compute-apps");
    f("process_list", process_list, "those processes (at most 16): pid, name and memory");
  }
};

// A GPU nvidia-smi named but could not reach: "Unable to determine the device
// handle for GPU 0000:0B:00.0: Unknown Error" (or "... GPU is lost").
struct SmiLostGpu {
  std::string bus_id, reason;
  std::optional<std::string> name;

  template <class F>
  void fields(F& f) const {
    f("bus_id", bus_id, "the PCI address nvidia-smi printed");
    f("reason", reason, "what it said after the address: Unknown Error, GPU is lost");
    f("name", name, "the model at that address on the PCI bus");
  }
};

// What running nvidia-smi showed (only where a driver should answer).
struct NvidiaSmiFacts {
  ChildStatus status = ChildStatus::ok;
  std::optional<std::string> message;
  std::optional<std::int64_t> signal;
  std::optional<std::string> signal_name;
  std::optional<std::string> driver_version, cuda_version, own_version, banner_driver_version;
  bool driver_versions_agree = true;
  std::vector<SmiGpu> gpus;
  std::vector<SmiLostGpu> lost_gpus;
  std::optional<std::string> cut;

  template <class F>
  void fields(F& f) const {
    f("status", status,
      "how it ended: no-driver ('couldn't communicate with the NVIDIA driver'), version-mismatch, failed (another exit), "
      "not-run (under --root), not-recorded (a replay without its answer)");
    f("message", message, "the first line it printed when it did not succeed");
    f("signal", signal, "the signal that ended it, when it crashed");
    f("signal_name", signal_name, "its name, SIGSEGV");
    f("driver_version", driver_version, "the driver version it reports (the first GPU's)");
    f("cuda_version", cuda_version, "the CUDA version `nvidia-smi --version` says (else plain nvidia-smi's banner: 'CUDA Version:', from R610 'CUDA UMD Version:'): the newest the driver supports");
    f("own_version", own_version, "'NVIDIA-SMI version' of `nvidia-smi --version` (else the banner's 'NVIDIA-SMI x'): the release of this nvidia-smi binary");
    f("banner_driver_version", banner_driver_version, "'DRIVER version' of `nvidia-smi --version` (else the banner's 'Driver Version:', from R610 'KMD Version:')");
    f("driver_versions_agree", driver_versions_agree, "every GPU's line reports the same driver version");
    f("gpus", gpus, "one entry per GPU line");
    f("lost_gpus", lost_gpus, "GPUs it named but could not reach ('Unable to determine the device handle', 'GPU is lost'): exit 15");
    f("cut", cut, "set when it wrote more than gpudoctor reads: what was read is its start");
  }
};

// NVIDIA Fabric Manager, which an NVSwitch system needs before CUDA can
// start (error 802 without it), from files: its program and systemd unit.
// What Fabric Manager's log (and, where it is not running, its journal) says.
struct FabricManagerLogFacts {
  std::optional<std::string> source{}, cut{};
  std::optional<std::string> version_mismatch{}, mismatch_source{}, fabric_manager_version{}, driver_version{};
  std::int64_t nvswitch_fatal_errors = 0;
  std::optional<std::string> nvswitch_fatal_line{}, topology_mismatch{};

  template <class F>
  void fields(F& f) const {
    f("source", source, "the log file read (/var/log/fabricmanager.log)");
    f("cut", cut, "set when only its end was read");
    f("version_mismatch", version_mismatch,
      "the newest 'fabric manager NVIDIA GPU driver interface version X don't match with driver version Y': it refused to run beside that driver");
    f("mismatch_source", mismatch_source, "where that line was: the log file, or the unit's journal (asked only where Fabric Manager is not running)");
    f("fabric_manager_version", fabric_manager_version, "the Fabric Manager version that line names");
    f("driver_version", driver_version, "the driver version that line names");
    f("nvswitch_fatal_errors", nvswitch_fatal_errors, "'detected NVSwitch fatal error N' lines in what was read");
    f("nvswitch_fatal_line", nvswitch_fatal_line, "the newest of them");
    f("topology_mismatch", topology_mismatch,
      "the newest 'detected number of NVSwitches don't match with any supported system topology' (it aborted)");
  }
};

struct FabricManagerFacts {
  Nullable<std::string> program, unit;
  bool enabled = false;
  bool masked = false;
  bool in_driver_container = false;
  Nullable<std::string> nvlsm_program;
  std::optional<bool> ib_umad;
  Nullable<bool> running;
  std::optional<std::int64_t> pid;
  std::optional<std::string> package, package_version;
  std::optional<FabricManagerLogFacts> log;

  template <class F>
  void fields(F& f) const {
    f("program", program, "nv-fabricmanager, where the nvidia-fabricmanager package puts it");
    f("unit", unit, "nvidia-fabricmanager.service in a systemd unit directory");
    f("enabled", enabled, "the unit is wanted by multi-user.target (it starts at boot)");
    f("masked", masked, "the unit is masked (`systemctl mask`: a link to /dev/null in a unit directory before its file): systemd starts it neither at boot nor by hand");
    f("in_driver_container", in_driver_container,
      "the program is the GPU Operator's, in its driver container's root (/run/nvidia/driver), which starts it itself");
    f("nvlsm_program", nvlsm_program,
      "fourth-generation NVSwitch baseboards (hardware.nvswitch_management_ports): nvlsm, where the nvlsm package puts it (/opt/nvidia/nvlsm/sbin)");
    f("running", running,
      "a process named nv-fabricmanager runs (the command in /proc/PID/stat, read once with every process's state); null when not "
      "every process can be seen (a --root tree, /proc with hidepid: pid 1 is not listed), or more processes than gpudoctor reads");
    f("pid", pid, "that process's id");
    f("package", package, "the dpkg package that installed it (nvidia-fabricmanager-550, or nvidia-fabricmanager from R580), from /var/lib/dpkg/status");
    f("package_version", package_version, "that package's version without its Debian revision: the Fabric Manager release, which must be the driver's");
    f("log", log, "what its log says about its last runs (where the log exists, or it is not running and its journal names a version mismatch)");
    f("ib_umad", ib_umad,
      "fourth-generation NVSwitch baseboards: /sys/module/ib_umad exists, the InfiniBand MAD module NVLSM talks to the NVSwitches through");
  }
};

// running: its driver files are there; empty: not mounted (not running, or still installing).
// Why --smoke ran no kernel, where the report can say (rules/layers/driver-answers.json has the words).
enum class SmokeNotRun { image, root, no_libcuda, no_driver_probe, static_build, recorded_without_smoke, not_recorded };
template <>
struct EnumTable<SmokeNotRun> {
  static constexpr std::array names{"image", "root", "no-libcuda", "no-driver-probe", "static-build", "recorded-without-smoke", "not-recorded"};
};

enum class DriverContainerState { running, empty };
template <>
struct EnumTable<DriverContainerState> {
  static constexpr std::array names{"running", "empty"};
};

// The GPU Operator's driver container, seen from the node: it bind-mounts its
// own root at /run/nvidia/driver (gpu-driver-container's _mount_rootfs), the
// root the container toolkit injects from; the host itself has no driver files.
struct DriverContainerFacts {
  std::string root = "/run/nvidia/driver";
  DriverContainerState state = DriverContainerState::empty;
  Nullable<std::string> libcuda, version;
  bool nvidia_smi = false, pid_file = false;
  std::vector<std::string> validations;

  template <class F>
  void fields(F& f) const {
    f("root", root, "where the driver container's root is mounted on the node");
    f("state", state, "running (its libcuda is there) or empty (the container is not running, or has not finished installing)");
    f("libcuda", libcuda, "libcuda.so.<version> under that root; null: the root is empty (the container is not running)");
    f("version", version, "the driver version of that libcuda");
    f("nvidia_smi", nvidia_smi, "the root holds usr/bin/nvidia-smi");
    f("pid_file", pid_file, "/run/nvidia/nvidia-driver.pid: the driver container's entrypoint is running");
    f("validations", validations, "the operator validator's ready files in /run/nvidia/validations (driver-ready, toolkit-ready, ...)");
  }
};

// A file at a driver library's name that is no ELF library (empty, cut short,
// a placeholder): what `docker commit` of a WSL2 container leaves in an image.
struct DamagedLibraryFacts {
  std::string path;
  std::int64_t size = 0;

  template <class F>
  void fields(F& f) const {
    f("path", path, "the file, a regular file (not a link)");
    f("size", size, "its size in bytes");
  }
};

// A process in uninterruptible sleep (D) in the NVIDIA driver: blocked in
// one of its functions, or holding one of its device nodes.
struct StuckProcess {
  std::int64_t pid = 0;
  std::string command;
  std::optional<std::string> wchan{};
  std::vector<std::string> nodes{};
  std::optional<std::int64_t> hung_seconds{};

  template <class F>
  void fields(F& f) const {
    f("pid", pid, "its process id");
    f("command", command, "its name, /proc/PID/stat's comm (escaped)", FreeText{});
    f("wchan", wchan, "the kernel function it sleeps in (/proc/PID/wchan; root sees it)", FreeText{});
    f("nodes", nodes, "the NVIDIA device nodes it has open (the first 8)");
    f("hung_seconds", hung_seconds, "the kernel's hung-task detector reported it blocked this long in the driver");
  }
};

// A process NVML lists on a GPU that is a zombie: it exited, and its parent
// has not reaped it, so what it held stays held.
struct ZombieGpuProcess {
  std::int64_t pid = 0;
  std::int64_t gpu = 0;
  std::optional<std::string> name{};
  std::optional<std::int64_t> used_mib{};
  std::optional<std::int64_t> parent{};
  std::optional<std::string> parent_command{};

  template <class F>
  void fields(F& f) const {
    f("pid", pid, "its process id");
    f("gpu", gpu, "NVML's index of the GPU it holds");
    f("name", name, "NVML's name for it");
    f("used_mib", used_mib, "GPU memory it holds, MiB");
    f("parent", parent, "its parent's process id, which has not reaped it");
    f("parent_command", parent_command, "the parent's name", FreeText{});
  }
};

// Processes read from /proc (this PID namespace's), for those stuck in the driver.
struct ProcessScanFacts {
  std::string scan;
  std::int64_t processes = 0;
  std::int64_t uninterruptible = 0;
  std::vector<StuckProcess> stuck_in_driver{};
  std::vector<ZombieGpuProcess> gpu_zombies{};
  std::optional<std::string> cut{};

  template <class F>
  void fields(F& f) const {
    f("scan", scan, "ok, or why /proc could not be listed");
    f("processes", processes, "processes read");
    f("uninterruptible", uninterruptible, "of them, in uninterruptible sleep (D) when read");
    f("stuck_in_driver", stuck_in_driver, "those in D state in the NVIDIA driver, still there when read again (at most 16)");
    f("gpu_zombies", gpu_zombies, "on a host: processes NVML lists on a GPU that are zombies (at most 16)");
    f("cut", cut, "set when /proc held more processes than gpudoctor reads");
  }
};

struct DriverLibsFacts {
  std::vector<DriverLibraryFacts> libraries;  // libcuda.so.1 first
  DriverLibraryFacts unversioned_libcuda;     // dlopen("libcuda.so"), as numba and cuda-python do
  std::vector<std::string> libcuda_elsewhere, stubs;
  Nullable<std::string> nvidia_smi, ld_library_path;
  std::optional<std::string> nvidia_smi_off_path;
  std::optional<std::string> program_runpath;
  std::optional<NvidiaSmiFacts> nvidia_smi_run;
  std::optional<CudaProbeFacts> cuda_probe;
  std::optional<NvmlProbeFacts> nvml_probe;
  std::string ld_so_cache;
  std::optional<FabricManagerFacts> fabric_manager;  // NVSwitch systems only
  std::optional<DriverContainerFacts> driver_container;  // a GPU Operator node (hosts only)
  std::vector<DamagedLibraryFacts> damaged_libraries;    // --image only
  std::optional<std::string> vgpu_gridd, vgpu_gridd_conf;  // a vGPU guest's licensing daemon and its configuration
  GpuListSource gpu_list_source = GpuListSource::files;
  std::optional<SmokeNotRun> smoke_not_run;
  std::optional<std::int64_t> cuda_expected_devices;
  std::vector<std::string> recovery_not_needed;
  std::optional<std::string> mps_control;
  std::optional<ProcessScanFacts> processes;

  template <class F>
  void fields(F& f) const {
    f("smoke_not_run", smoke_not_run,
      "--smoke was asked for and no kernel ran, for a reason other than the driver probe's own failure (which has its finding): --image, --root, no libcuda, no driver probe, the static build, a snapshot recorded without --smoke or without the probe");
    f("libraries", libraries, "libcuda.so.1, libnvidia-ml.so.1, libnvidia-ptxjitcompiler.so.1, libnvidia-nvvm.so.4");
    f("unversioned_libcuda", unversioned_libcuda,
      "dlopen(\"libcuda.so\") as numba, cuda-python, warp and bitsandbytes do; the toolkit's stubs/ holds exactly that name");
    f("libcuda_elsewhere", libcuda_elsewhere, "libcuda.so.* files in driver directories that the loader does not pick");
    f("stubs", stubs, "toolkit stub libcuda.so files under /usr/local/cuda*");
    f("nvidia_smi", nvidia_smi, "nvidia-smi on PATH");
    f("nvidia_smi_off_path", nvidia_smi_off_path,
      "where nvidia-smi is not on PATH: the platform's own (WSL2's /usr/lib/wsl/lib/nvidia-smi), which the live check runs");
    f("ld_library_path", ld_library_path, "LD_LIBRARY_PATH, escaped");
    f("nvidia_smi_run", nvidia_smi_run, "live, where a driver should answer: what running nvidia-smi showed");
    f("cuda_probe", cuda_probe, "live, where libcuda.so.1 resolves (not with --no-probe): a child that loaded it and called cuInit");
    f("nvml_probe", nvml_probe, "live, where libnvidia-ml.so.1 resolves (not with --no-probe): a child that asked NVML");
    f("program_runpath", program_runpath, "the RUNPATH the system's programs carry to reach the driver (NixOS: /run/opengl-driver/lib)");
    f("fabric_manager", fabric_manager, "NVSwitch systems (hosts): Fabric Manager's program and unit, from files");
    f("damaged_libraries", damaged_libraries,
      "--image: regular files at libcuda.so* or libnvidia-ml.so* names in the driver directories that are no ELF library");
    f("vgpu_gridd", vgpu_gridd, "a vGPU (GRID) guest: nvidia-gridd, the daemon that obtains its license");
    f("vgpu_gridd_conf", vgpu_gridd_conf, "a vGPU guest: /etc/nvidia/gridd.conf, where the license server or feature type is set");
    f("driver_container", driver_container, "a GPU Operator node (hosts, where /run/nvidia/driver exists): the driver container's root");
    f("ld_so_cache", ld_so_cache, "the cache's layout (old, compat, new), or why it could not be used");
    f("mps_control", mps_control,
      "the MPS control daemon's pipe this process would reach ($CUDA_MPS_PIPE_DIRECTORY/control, else /tmp/nvidia-mps/control): CUDA programs share the GPUs through MPS");
    f("recovery_not_needed", recovery_not_needed,
      "GPUs NVML says need no recovery now (recovery action None, R570 and newer), by PCI address as the kernel log "
      "writes it with its function (0000:1b:00.0): an Xid before is over", FreeText{});
    f("cuda_expected_devices", cuda_expected_devices,
      "how many devices CUDA should list for this workload: what CUDA_VISIBLE_DEVICES selects, else the GPU nodes a container "
      "was given, else the host's GPUs that no VM holds (vfio-pci), or the count --expect gpus= gives less those; absent with MIG on or when unknown");
    f("gpu_list_source", gpu_list_source,
      "which evidence lists the GPUs (the GPU table of `gpus`, text and markdown): NVML when it answered with devices, "
      "else nvidia-smi, else CUDA's devices, else the files (sysfs, /proc/driver/nvidia)");
    f("processes", processes,
      "processes stuck in the NVIDIA driver (D state) and zombies NVML lists on a GPU, read from /proc after gpudoctor's own children ended; absent with --image");
  }
};

}  // namespace gd
