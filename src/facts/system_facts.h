#pragma once
// Facts about the machine as a whole, which every layer reads: the platform
// decides what each layer should look like (no PCI bus under WSL2, no Linux
// module under gVisor).

#include "model/fact_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gd {

enum class Platform { native_linux, wsl2, wsl1, gvisor };
template <>
struct EnumTable<Platform> {
  static constexpr std::array names{"linux", "wsl2", "wsl1", "gvisor"};
};

// The Linux security module whose label confines this process.
enum class SecurityModule { selinux, apparmor };
template <>
struct EnumTable<SecurityModule> {
  static constexpr std::array names{"selinux", "apparmor"};
};

struct SecurityFacts {
  SecurityModule module = SecurityModule::selinux;
  std::string label;
  std::optional<bool> enforcing;
  std::optional<bool> container_use_devices;

  template <class F>
  void fields(F& f) const {
    f("module", module, "the module that labels this process");
    f("label", label, "the process's label (/proc/self/attr/current), escaped: an SELinux context or an AppArmor profile and its mode");
    f("enforcing", enforcing,
      "the module refuses what its policy does not allow (SELinux: /sys/fs/selinux/enforce, which containers usually lack; AppArmor: the profile's mode)");
    f("container_use_devices", container_use_devices,
      "SELinux (container-selinux): whether containers may use the host's devices; readable where selinuxfs is (hosts)");
  }
};

struct SystemFacts {
  Platform platform = Platform::native_linux;
  std::optional<std::string> platform_evidence;
  std::string kernel_release;
  std::string machine;
  std::int64_t uid = 0;
  std::int64_t gid = 0;
  std::vector<std::int64_t> groups;
  bool image = false;
  std::optional<SecurityFacts> security;

  template <class F>
  void fields(F& f) const {
    f("platform", platform, "from uname, /dev/dxg and gVisor's synthetic /proc (src/platforms: one file each)");
    f("platform_evidence", platform_evidence, "what says this machine is that platform; null on plain Linux, which is what no platform claims");
    f("kernel_release", kernel_release, "uname -r");
    f("machine", machine, "uname -m");
    f("uid", uid, "effective user id");
    f("gid", gid, "effective group id");
    f("groups", groups, "supplementary group ids");
    f("security", security, "the security module that confines this process (SELinux, AppArmor); absent where none labels it, or AppArmor's unconfined");
    f("image", image, "check --image: an image is judged, not a running system (no devices, no driver of its own)");
  }
};

}  // namespace gd
