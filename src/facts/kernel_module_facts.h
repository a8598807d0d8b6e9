#pragma once
// Layer 2, kernel-module: the nvidia module and its neighbours.

#include "facts/hardware_facts.h"
#include "model/action.h"
#include "model/fact_fields.h"
#include "util/result.h"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

// The kernel module's flavour: NVIDIA's open modules (Dual MIT/GPL) or the proprietary one.
enum class ModuleFlavour { open, proprietary };
template <>
struct EnumTable<ModuleFlavour> {
  static constexpr std::array names{"open", "proprietary"};
};

// The integrity check of a .ko.xz's stream: the kernel's own xz decoder,
// which in-kernel module decompression uses, takes none and crc32 only.
enum class XzCheck { none, crc32, crc64, sha256, other };
template <>
struct EnumTable<XzCheck> {
  static constexpr std::array names{"none", "crc32", "crc64", "sha256", "other"};
};

// Loaded (true), not loaded (false), or cannot tell (null: no /proc/modules, no /sys/module).
struct ModuleStates {
  Nullable<bool> nvidia, nvidia_uvm, nvidia_modeset, nvidia_drm, nouveau, nova_core, nova_drm, nvidia_peermem, nvidia_fs, nvgpu;

  template <class F>
  void fields(F& f) const {
    f("nvidia", nvidia, "the driver's core module");
    f("nvidia_uvm", nvidia_uvm, "unified memory; CUDA needs it (error 999 without)");
    f("nvidia_modeset", nvidia_modeset, "display mode setting");
    f("nvidia_drm", nvidia_drm, "DRM/KMS");
    f("nouveau", nouveau, "the open-source driver, which must not hold the GPU");
    f("nova_core", nova_core, "the Rust nova driver's core");
    f("nova_drm", nova_drm, "the Rust nova driver's DRM part");
    f("nvidia_peermem", nvidia_peermem, "GPUDirect RDMA with InfiniBand/RoCE NICs (a fact; only RDMA users need it)");
    f("nvidia_fs", nvidia_fs, "GPUDirect Storage (a fact; only GDS users need it)");
    f("nvgpu", nvgpu, "Jetson's integrated-GPU driver (JetPack 4 builds it into the kernel; JetPack 7 uses nvidia)");
  }
};

struct ClaimedGpu {
  std::string bdf;
  std::string source;  // its /proc/driver/nvidia/gpus/<bdf>/information
  std::optional<std::string> name;
  std::optional<std::int64_t> minor;  // /dev/nvidia<minor>
  std::optional<bool> excluded;
  std::optional<std::string> uuid;

  template <class F>
  void fields(F& f) const {
    f("bdf", bdf, "PCI address");
    f("source", source, "its information file");
    f("name", name, "Model");
    f("minor", minor, "Device Minor: its node is /dev/nvidia<minor>");
    f("excluded", excluded, "GPU Excluded (NVreg_ExcludedGpus)");
    f("uuid", uuid, "GPU UUID, GPU-...");
  }
};

// A modprobe.d line that keeps a module from loading.
struct ModuleBlock {
  std::string module, how, source;  // how: "blacklist" or "install /bin/false"

  template <class F>
  void fields(F& f) const {
    f("module", module, "the module", FreeText{});
    f("how", how, "blacklist (no loading by alias, as at boot) or install /bin/false|true (no loading at all)");
    f("source", source, "the modprobe.d file");
  }
};

struct ModuleOptions {
  std::string module, options, source;

  template <class F>
  void fields(F& f) const {
    f("module", module, "the module");
    f("options", options, "its options, e.g. NVreg_OpenRmEnableUnsupportedGpus=1");
    f("source", source, "the modprobe.d file");
  }
};

struct ModprobeFacts {
  std::vector<ModuleBlock> blacklisted;
  std::vector<ModuleOptions> options;

  template <class F>
  void fields(F& f) const {
    f("blacklisted", blacklisted, "modules that modprobe's configuration keeps from loading");
    f("options", options, "options lines for the NVIDIA and competing modules");
  }
};

// An nvidia.ko installed for the running kernel, with its .modinfo.
struct InstalledModule {
  std::string path;
  std::optional<std::string> compression, modinfo_problem, not_read;
  std::optional<std::string> version, license, vermagic;
  std::optional<ModuleFlavour> flavour;
  std::optional<XzCheck> xz_check;
  std::optional<bool> matches_kernel, modprobe_loads, signed_;

  template <class F>
  void fields(F& f) const {
    f("path", path, "the module file under /lib/modules/RELEASE");
    f("signed", signed_, "a module signature is appended (sign-file's '~Module signature appended~'); null when unreadable");
    f("modprobe_loads", modprobe_loads, "modules.dep names this file: it is the one `modprobe nvidia` loads");
    f("compression", compression, "xz, zstd or gzip for a .ko.xz, .ko.zst or .ko.gz (read unpacked, as kmod does)");
    f("xz_check", xz_check, "a .ko.xz's integrity check (its stream header): the kernel's own xz decoder takes none and crc32 only; plain `xz` writes crc64");
    f("modinfo_problem", modinfo_problem, "why its .modinfo could not be read (damaged, cut short, past a cap)");
    f("not_read", not_read, "listed but not read: the modules unpacked before it used up what a run unpacks (nothing is said of it)");
    f("version", version, ".modinfo version: the driver version it would load");
    f("license", license, ".modinfo license");
    f("flavour", flavour, "open (Dual MIT/GPL) or proprietary (NVIDIA)");
    f("vermagic", vermagic, ".modinfo vermagic: the kernel it was built for");
    f("matches_kernel", matches_kernel, "vermagic names the running kernel");
  }
};

// A key DKMS, Ubuntu's shim-signed or akmods signs modules with, and whether
// the firmware trusts it: its certificate in MokListRT (shim's list) or db.
struct SigningKey {
  std::string path;
  std::optional<bool> enrolled;

  template <class F>
  void fields(F& f) const {
    f("path", path, "the public key (DER): /var/lib/dkms/mok.pub, /var/lib/shim-signed/mok/MOK.der, /etc/pki/akmods/certs/public_key.der");
    f("enrolled", enrolled, "its certificate is in MokListRT or db (null: a PEM key, or no list readable)");
  }
};

// The GSP firmware of one driver version: /lib/firmware/nvidia/VERSION/gsp_*.bin,
// which the open module (and the proprietary one on GSP GPUs) loads at GPU init.
struct GspFirmware {
  std::string version;
  Nullable<std::string> directory;
  std::vector<std::string> files;
  std::vector<std::string> other_versions;

  template <class F>
  void fields(F& f) const {
    f("version", version, "the driver version whose firmware was looked for (the loaded one, else the installed module's)");
    f("directory", directory, "the first of the kernel's firmware directories that has nvidia/VERSION (null: none has)");
    f("files", files, "the gsp_*.bin files there");
    f("other_versions", other_versions, "versions /lib/firmware/nvidia has firmware for instead (a leftover of another driver)");
  }
};

// One Xid code on one GPU: every line of it in the log, counted (a flood of
// thousands is one entry), with NVIDIA's catalog row (rules/tables/xid-codes.json).
struct XidEvent {
  std::int64_t code = 0;
  std::string bdf, line;
  std::int64_t count = 0;
  std::optional<std::string> mnemonic, meaning, immediate, investigatory, origin, advice;
  std::optional<Action> action;
  std::optional<std::string> recovery_action;  // Xid 154: the driver's words, "Drain and Reset"
  bool recovered = false;
  std::optional<std::string> nvlink5_decode;

  template <class F>
  void fields(F& f) const {
    f("code", code, "the Xid number");
    f("bdf", bdf, "the GPU, as the log names it (PCI domain:bus:device)");
    f("line", line, "the newest log line of this code on this GPU");
    f("count", count, "how many lines of this code on this GPU the log holds");
    f("mnemonic", mnemonic, "NVIDIA's name for the code (absent: a code NVIDIA's catalog that gpudoctor carries lacks)");
    f("meaning", meaning, "what NVIDIA's Xid catalog says it means");
    f("immediate", immediate,
      "NVIDIA's immediate resolution bucket (RESTART_APP, RESET_GPU, CONTACT_SUPPORT...); for NVLink5 (144-150) the decoded row's, "
      "where the decode table has the line");
    f("investigatory", investigatory, "NVIDIA's investigatory resolution bucket, when it has one (for NVLink5, the decoded row's)");
    f("origin", origin, "whose fault gpudoctor's table says it is", std::vector<std::string>{"application", "hardware", "driver", "system"});
    f("advice", advice, "what to do, in words");
    f("action", action,
      "what a fleet should do: the catalog's, or for Xid 154 what the driver's newest line of it asks for "
      "(None, GPU Reset Required, Node Reboot Required, Drain P2P, Drain and Reset)");
    f("recovery_action", recovery_action,
      "the recovery action the driver's newest Xid 154 for this GPU names, where one came after this code's newest line");
    f("recovered", recovered, "true when that Xid 154 changed the GPU's recovery action back to None: the driver says the recovery is done");
    f("nvlink5_decode", nvlink5_decode,
      "NVLink5 (Xid 144-150): how the line that decides the action decodes in NVIDIA's Xid 144-150 decode table "
      "(rules/tables/nvlink5-decode.json): its unit and errorStatus, or NETIR_LINK_EVT's link-down reason, and NVIDIA's immediate "
      "and investigatory buckets; a line the table lacks goes by its Fatal or Nonfatal word");
  }
};

// One SXid code on one NVSwitch: its error reports in the log, counted (a
// report's Severity and Data lines are part of it), with the Fabric Manager
// guide's row (rules/tables/sxid-codes.json).
struct SxidEvent {
  std::int64_t code = 0;
  std::string nvswitch, line;
  std::int64_t count = 0;
  bool fatal_in_log = false;
  std::optional<std::string> name{}, klass{};
  std::optional<Action> action{};

  template <class F>
  void fields(F& f) const {
    f("code", code, "the SXid number");
    f("nvswitch", nvswitch, "the NVSwitch, by its PCI address as the log names it");
    f("line", line, "the newest report's first line");
    f("count", count, "how many reports of this code on this NVSwitch the log holds");
    f("fatal_in_log", fatal_in_log, "a report said Fatal (the driver's word for that occurrence)");
    f("name", name, "the Fabric Manager guide's name for it (absent: a code its tables lack)");
    f("class", klass, "the guide's class", std::vector<std::string>{"non-fatal", "fatal", "always-fatal", "other", "not-in-guide"});
    f("action", action, "what a fleet should do (gpudoctor's, from the guide's handling)");
  }
};

// The kernel log's NVIDIA lines (dmesg, else journalctl -k).
// "INFO: task python:4242 blocked for more than 120 seconds.": the kernel's
// hung-task detector saw a task in uninterruptible sleep that long; its call
// trace says whether it sleeps in the NVIDIA driver.
struct HungTask {
  std::string command{};
  std::int64_t pid = 0;
  std::int64_t seconds = 0;
  bool in_driver = false;
  std::int64_t count = 0;
  std::string line{};

  template <class F>
  void fields(F& f) const {
    f("command", command, "the task's name (escaped)", FreeText{});
    f("pid", pid, "its process id (the host's: the kernel log is the host's)");
    f("seconds", seconds, "how long it had been blocked when last reported");
    f("in_driver", in_driver, "its call trace runs through an NVIDIA module ([nvidia], [nvidia_uvm], ...)");
    f("count", count, "how many reports of it the log holds");
    f("line", line, "the newest report");
  }
};

struct KernelLogFacts {
  Nullable<std::string> source;  // /dev/kmsg, dmesg or journalctl; null: could not be read
  std::vector<std::string> lines;
  std::optional<std::string> api_mismatch, rm_init_failed, open_module_refused, open_module_required, fallen_off_bus, no_gpu_found, key_rejected, gsp_error, firmware_missing,
      bar_invalid, module_decompression_failed;
  std::vector<XidEvent> xids;
  std::int64_t xid_lines = 0;
  std::optional<std::string> xids_cut;
  std::vector<SxidEvent> sxids;
  std::optional<std::string> sxids_cut;
  std::vector<HungTask> hung_tasks;
  std::optional<std::string> nic_insufficient_power, nic_module_hot, peermem_invalid_context;
  std::optional<std::string> cut;

  template <class F>
  void fields(F& f) const {
    f("source", source, "/dev/kmsg, else dmesg or journalctl; null when none could be read (no permission, or --root)");
    f("cut", cut, "set when the log was longer than gpudoctor reads: its newest part was read, and this says how much");
    f("lines", lines, "the NVRM and nvidia lines, the first 40");
    f("api_mismatch", api_mismatch, "'NVRM: API mismatch': user space and module differ");
    f("rm_init_failed", rm_init_failed, "'RmInitAdapter failed': a GPU failed to initialise");
    f("open_module_refused", open_module_refused, "'not supported by open nvidia.ko'");
    f("open_module_required", open_module_required,
      "'requires use of the NVIDIA open kernel modules': the proprietary module refuses a GPU (Blackwell), with the line before it that names the GPU");
    f("fallen_off_bus", fallen_off_bus, "'GPU has fallen off the bus'");
    f("no_gpu_found", no_gpu_found, "'No NVIDIA GPU found': the module found no GPU it drives");
    f("key_rejected", key_rejected, "'Key was rejected by service': Secure Boot refused the module's signature");
    f("gsp_error", gsp_error, "the GPU System Processor's firmware failed to boot or answer");
    f("firmware_missing", firmware_missing, "'RmFetchGspRmImages: No firmware image found', or the kernel's 'Direct firmware load for nvidia/... failed'");
    f("module_decompression_failed", module_decompression_failed,
      "the newest 'decompression failed with status N' (kernel/module/decompress.c; names no module): the kernel could not unpack a compressed module kmod handed it, status 6 an .xz check other than CRC32");
    f("bar_invalid", bar_invalid, "'NVRM: BAR1 is 0M @ 0x0 (PCI:...)' after 'This PCI I/O region assigned to your NVIDIA device is invalid': the firmware left a BAR unassigned");
    f("xids", xids, "Xid errors, one entry per code and GPU, in the order each first appears");
    f("xid_lines", xid_lines, "how many Xid lines the log holds");
    f("xids_cut", xids_cut, "set when more codes and GPUs appeared than gpudoctor keeps apart (64): later ones that need nothing are counted in xid_lines only, and one that asks for recovery takes the place of one that needs nothing");
    f("sxids", sxids, "NVSwitch SXid errors, one entry per code and NVSwitch (at most 64)");
    f("sxids_cut", sxids_cut, "set when more SXid codes and NVSwitches appeared than gpudoctor keeps apart");
    f("nic_insufficient_power", nic_insufficient_power,
      "the newest 'Detected insufficient power on the PCIe slot' of a ConnectX adapter (mlx5_core)");
    f("nic_module_hot", nic_module_hot, "the newest mlx5 'Port module event' that says High Temperature: a cable or transceiver overheats");
    f("peermem_invalid_context", peermem_invalid_context,
      "the newest nvidia-peermem 'ERROR detected invalid context' (GPU memory registered for RDMA freed while still registered)");
    f("hung_tasks", hung_tasks, "tasks the kernel's hung-task detector reported blocked ('blocked for more than N seconds'), one entry per task (at most 16)");
  }
};

struct KernelModuleFacts {
  std::string proc_modules;  // "ok" or the errno of reading /proc/modules
  Nullable<bool> loaded;
  ModuleStates modules;
  std::optional<std::string> version_line, sysfs_version, version, driver_cuda;
  std::optional<ModuleFlavour> flavour;
  std::optional<std::int64_t> branch, driver_cuda_major;
  std::vector<ClaimedGpu> claimed_gpus;
  std::vector<PciFunction> unclaimed_gpus;
  bool nvidia_modprobe = false;
  std::optional<bool> built_for_running_kernel, installed_matches_kernel, secure_boot;
  std::optional<bool> running_kernel_modules_missing;
  std::vector<std::string> other_kernel_releases;
  std::optional<std::string> module_file;
  std::optional<bool> module_file_signed;
  std::optional<std::string> kernel_decompresses;
  std::optional<std::int64_t> kmod_release;
  std::optional<std::vector<SigningKey>> signing_keys;
  std::optional<bool> signing_key_enrolled;
  std::optional<GspFirmware> gsp_firmware;
  boost::json::object params;  // /proc/driver/nvidia/params
  ModprobeFacts modprobe;
  std::optional<std::vector<InstalledModule>> installed_modules;
  std::optional<std::int64_t> installed_branch;  // of the first installed module whose version is known
  std::optional<ModuleFlavour> installed_flavour;
  std::optional<KernelLogFacts> kernel_log;

  template <class F>
  void fields(F& f) const {
    f("proc_modules", proc_modules, "ok, or the errno name of reading /proc/modules (assumed: an image)", read_outcome_names({"assumed"}));
    f("loaded", loaded, "whether nvidia is loaded (null: cannot tell)");
    f("modules", modules, "each watched module");
    f("version_line", version_line, "first line of /proc/driver/nvidia/version");
    f("flavour", flavour, "open or proprietary, from the version line");
    f("sysfs_version", sysfs_version, "/sys/module/nvidia/version");
    f("version", version, "the loaded driver's version, 550.54.15");
    f("branch", branch, "its major number, 550");
    f("driver_cuda", driver_cuda, "the CUDA version the branch reports (rules/tables/cuda-drivers.json); on a Jetson, its L4T release's (tegra-socs.json)");
    f("driver_cuda_major", driver_cuda_major, "its major");
    f("claimed_gpus", claimed_gpus, "GPUs in /proc/driver/nvidia/gpus");
    f("unclaimed_gpus", unclaimed_gpus, "PCI GPUs the module did not claim (hardware.gpus entries)");
    f("nvidia_modprobe", nvidia_modprobe, "/usr/bin/nvidia-modprobe exists (it loads nvidia_uvm on demand)");
    f("built_for_running_kernel", built_for_running_kernel, "not loaded: modules.dep of uname -r lists nvidia.ko");
    f("installed_matches_kernel", installed_matches_kernel,
      "not loaded: an nvidia.ko below /lib/modules/$(uname -r) names the running kernel in its vermagic (whether or not modules.dep lists it)");
    f("module_file", module_file, "not loaded: the nvidia.ko that modules.dep lists");
    f("running_kernel_modules_missing", running_kernel_modules_missing,
      "/lib/modules/<uname -r> is gone while other kernels' directories remain (a kernel upgrade removed it, no reboot since)");
    f("other_kernel_releases", other_kernel_releases, "the kernels /lib/modules holds instead, when the running one's is gone");
    f("secure_boot", secure_boot, "not loaded: the SecureBoot EFI variable");
    f("module_file_signed", module_file_signed, "not loaded: the module modules.dep lists carries a signature");
    f("kernel_decompresses", kernel_decompresses,
      "not loaded: /sys/module/compression, the one compression the kernel unpacks modules of itself (kmod 31 and later hand it such a module)",
      std::vector<std::string>{"xz", "zstd", "gzip"});
    f("kmod_release", kmod_release, "not loaded, an .xz module the kernel's decoder refuses: kmod's release, from dpkg, else `kmod --version` (31 and later hand the kernel the compressed file)");
    f("signing_keys", signing_keys, "not loaded, Secure Boot on: the module-signing keys on disk and whether the firmware trusts each");
    f("gsp_firmware", gsp_firmware, "the GSP firmware files of the driver version, where one is known");
    f("signing_key_enrolled", signing_key_enrolled, "some signing key is enrolled (false: keys found, none enrolled; null: cannot tell)");
    f("params", params, "/proc/driver/nvidia/params: the loaded module's NVreg parameters (OpenRmEnableUnsupportedGpus, ...)");
    f("modprobe", modprobe, "/etc/modprobe.d and friends: blacklists and options");
    f("installed_modules", installed_modules, "not loaded: nvidia.ko files installed for the running kernel");
    f("installed_branch", installed_branch, "not loaded: the branch of the installed module (its .modinfo version's major)");
    f("installed_flavour", installed_flavour, "not loaded: open or proprietary, from the installed module's license");
    f("kernel_log", kernel_log, "where there is a GPU or a module: the kernel log's NVIDIA lines");
  }
};

}  // namespace gd
