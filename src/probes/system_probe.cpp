#include "probes/system_probe.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace gd {
namespace json = boost::json;

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// gVisor's sentry answers uname with "...-gvisor"; its synthetic /proc keeps
// only params under /proc/driver/nvidia and its /sys/module is empty.
bool looks_like_gvisor(Host& host, const std::string& release) {
  if (contains(lower(release), "gvisor")) return true;
  const auto modules = host.list_dir("/sys/module");
  return modules && modules->empty() && host.exists("/proc/driver/nvidia/params") &&
         !host.exists("/proc/driver/nvidia/version");
}

}  // namespace

json::object probe_system(Host& host) {
  const Uname uname = host.uname();
  const UserIds user = host.user();
  const std::string release = lower(uname.release);
  std::string platform = "linux";
  if (contains(release, "microsoft")) {
    // WSL1 also says Microsoft, but has neither /dev/dxg nor a real kernel.
    platform = contains(release, "wsl2") || host.device("/dev/dxg") ? "wsl2" : "wsl1";
  } else if (looks_like_gvisor(host, uname.release)) {
    platform = "gvisor";
  }
  json::array groups;
  for (auto group : user.groups) groups.push_back(group);
  return {{"platform", platform},
          {"kernel_release", printable(uname.release, 120)},
          {"machine", printable(uname.machine, 40)},
          {"uid", user.uid},
          {"gid", user.gid},
          {"groups", std::move(groups)}};
}

}  // namespace gd
