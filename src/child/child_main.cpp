#include "child/child_main.h"

#include "child/child_evidence.h"
#include "child/cri_status_child.h"
#include "child/crio_config_child.h"
#include "child/docker_api_child.h"
#include "child/driver_probe_child.h"
#include "util/result.h"
#include "util/unique_fd.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <iostream>

namespace gd {
namespace {

// NV_ESC_CHECK_VERSION_STR on /dev/nvidiactl (open-gpu-kernel-modules,
// nv-ioctl.h). cmd '2' is QUERY from driver 530.30.02 on; older drivers treat
// it as a no-op and leave the string empty. We never send the STRICT command
// that gVisor falls back to: it makes the driver log an "API mismatch" line,
// and gpudoctor must not change what it diagnoses.
struct NvRmApiVersion {
  std::uint32_t cmd;
  std::uint32_t reply;
  char version_string[64];
};
static_assert(sizeof(NvRmApiVersion) == 72);
constexpr unsigned long k_nv_esc_check_version_str = _IOWR('F', 200 + 10, NvRmApiVersion);
constexpr std::uint32_t k_cmd_query = '2';
constexpr unsigned k_nvidia_major = 195, k_nvidiactl_minor = 255;

// One line per node, flushed at once: when a later open hangs, the parent
// still has the answers before it. "N open=ok version=550.54.15".
std::string open_one(std::size_t index, const std::string& path) {
  std::string line = std::to_string(index);
  const UniqueFd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd.valid()) return line + " open=" + errno_name(errno);
  line += " open=ok";
  struct stat info {};
  // The ioctl goes only to the real control node: a character device 195:255.
  if (::fstat(fd.get(), &info) == 0 && S_ISCHR(info.st_mode) && ::major(info.st_rdev) == k_nvidia_major &&
      ::minor(info.st_rdev) == k_nvidiactl_minor) {
    NvRmApiVersion query{};
    query.cmd = k_cmd_query;
    if (::ioctl(fd.get(), k_nv_esc_check_version_str, &query) == 0) {
      query.version_string[sizeof query.version_string - 1] = '\0';
      std::string version(query.version_string);
      for (char& c : version)
        if (c <= ' ' || c > '~') c = '?';
      line += " version=" + version;
    } else {
      line += " ioctl=" + errno_name(errno);
    }
  }
  return line;
}

}  // namespace

int child_main(const std::vector<std::string>& args) {
  const auto kind = args.empty() ? std::nullopt : parse_child_kind(args[0]);
  if (kind == ChildKind::driver_probe) return driver_probe_child(std::vector<std::string>(args.begin() + 1, args.end()));
  if (kind == ChildKind::docker_api) return docker_api_child(std::vector<std::string>(args.begin() + 1, args.end()));
  if (kind == ChildKind::cri_status) return cri_status_child(std::vector<std::string>(args.begin() + 1, args.end()));
  if (kind == ChildKind::crio_config) return crio_config_child(std::vector<std::string>(args.begin() + 1, args.end()));
  if (kind != ChildKind::device_open) {
    std::cerr << "gpudoctor " << k_child_command << ": unknown kind\n";
    return 2;
  }
  for (std::size_t i = 1; i < args.size(); ++i) std::cout << open_one(i - 1, args[i]) << std::endl;
  return 0;
}

}  // namespace gd
