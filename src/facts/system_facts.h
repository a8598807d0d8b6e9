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

struct SystemFacts {
  Platform platform = Platform::native_linux;
  std::optional<std::string> platform_evidence;
  std::string kernel_release;
  std::string machine;
  std::int64_t uid = 0;
  std::int64_t gid = 0;
  std::vector<std::int64_t> groups;
  bool image = false;

  template <class F>
  void fields(F& f) const {
    f("platform", platform, "from uname, /dev/dxg and gVisor's synthetic /proc (src/platforms: one file each)");
    f("platform_evidence", platform_evidence, "what says this machine is that platform; null on plain Linux, which is what no platform claims");
    f("kernel_release", kernel_release, "uname -r");
    f("machine", machine, "uname -m");
    f("uid", uid, "effective user id");
    f("gid", gid, "effective group id");
    f("groups", groups, "supplementary group ids");
    f("image", image, "check --image: an image is judged, not a running system (no devices, no driver of its own)");
  }
};

}  // namespace gd
