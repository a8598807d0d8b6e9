#include "probes/system_probe.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace gd {

namespace {

// gVisor's sentry answers uname with "...-gvisor"; its synthetic /proc keeps
// only params under /proc/driver/nvidia and its /sys/module is empty.
bool looks_like_gvisor(Host& host, const std::string& release) {
  if (contains(to_lower(release), "gvisor")) return true;
  const auto modules = host.list_dir("/sys/module");
  return modules && modules->empty() && host.exists("/proc/driver/nvidia/params") &&
         !host.exists("/proc/driver/nvidia/version");
}

}  // namespace

SystemFacts probe_system(Host& host) {
  const Uname uname = host.uname();
  const UserIds user = host.user();
  const std::string release = to_lower(uname.release);
  SystemFacts facts;
  if (contains(release, "microsoft")) {
    // WSL1 also says Microsoft, but has neither /dev/dxg nor a real kernel.
    facts.platform = contains(release, "wsl2") || host.device("/dev/dxg") ? Platform::wsl2 : Platform::wsl1;
  } else if (looks_like_gvisor(host, uname.release)) {
    facts.platform = Platform::gvisor;
  }
  facts.kernel_release = printable(uname.release, 120);
  facts.machine = printable(uname.machine, 40);
  facts.uid = user.uid;
  facts.gid = user.gid;
  facts.groups.assign(user.groups.begin(), user.groups.end());
  return facts;
}

}  // namespace gd
