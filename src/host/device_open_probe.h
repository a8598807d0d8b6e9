#pragma once
// Opening a device node can block (a wedged GPU, a driver in D state), so
// the open, and the version ioctl on /dev/nvidiactl, run in a forked child
// with a deadline. A child that does not answer in time is abandoned and
// reported as ETIMEDOUT; that silence is itself evidence.

#include <chrono>
#include <optional>
#include <string>

namespace gd {

struct DeviceOpenResult {
  std::string open;                           // "ok" or an errno name
  std::optional<std::string> driver_version;  // set when the ioctl answered
};

enum class AskDriverVersion { yes, no };

DeviceOpenResult probe_device_open(const std::string& path, AskDriverVersion ask, std::chrono::milliseconds timeout);

}  // namespace gd
