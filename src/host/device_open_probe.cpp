#include "host/device_open_probe.h"

#include "util/result.h"
#include "util/text.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

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

std::string child_report(const std::string& path, AskDriverVersion ask) {
  const int fd = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return "open=" + errno_name(errno) + "\n";
  std::string report = "open=ok\n";
  if (ask == AskDriverVersion::yes) {
    NvRmApiVersion query{};
    query.cmd = k_cmd_query;
    if (::ioctl(fd, k_nv_esc_check_version_str, &query) == 0) {
      query.version_string[sizeof query.version_string - 1] = '\0';
      report += "version=" + std::string(query.version_string) + "\n";
    } else {
      report += "ioctl=" + errno_name(errno) + "\n";
    }
  }
  ::close(fd);
  return report;
}

void write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

// Reads the child's short report until EOF or the deadline.
std::optional<std::string> read_until(int fd, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string text;
  char buffer[256];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd waiting{fd, POLLIN, 0};
    const int ready = ::poll(&waiting, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::nullopt;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    if (text.size() < 4096) text.append(buffer, static_cast<std::size_t>(n));
  }
}

DeviceOpenResult parse_report(const std::string& report) {
  DeviceOpenResult result{"EIO", std::nullopt};
  for (auto line : lines(report)) {
    if (line.starts_with("open=")) result.open = std::string(line.substr(5));
    if (line.starts_with("version=")) result.driver_version = std::string(line.substr(8));
  }
  return result;
}

}  // namespace

DeviceOpenResult probe_device_open(const std::string& path, AskDriverVersion ask, std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {errno_name(errno), std::nullopt};
  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return {errno_name(error), std::nullopt};
  }
  if (child == 0) {
    ::close(fds[0]);
    write_all(fds[1], child_report(path, ask));
    ::_exit(0);
  }
  ::close(fds[1]);
  const auto report = read_until(fds[0], timeout);
  ::close(fds[0]);
  if (!report) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, WNOHANG);  // a child stuck in the kernel is left behind, not waited for
    return {"ETIMEDOUT", std::nullopt};
  }
  ::waitpid(child, nullptr, 0);
  return parse_report(*report);
}

}  // namespace gd
