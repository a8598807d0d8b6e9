#pragma once
// The one seam to the outside world. Every probe reads files, directories,
// symlinks, device nodes, the environment, the user's ids and commands'
// output through a Host, so each check runs the same live, under --root, or
// on a replayed snapshot (see docs/snapshot-format.md).

#include "util/result.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gd {

enum class FileType { regular, directory, symlink, char_device, block_device, other };

struct FileStat {
  FileType type = FileType::other;
  std::uint32_t mode = 0;  // permission bits only
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::uint64_t size = 0;
};

// What a /dev path is, and what happened when we tried to use it.
struct DeviceNode {
  std::string type;  // "char", "block", or "file"/"directory"/"other" for a wrong kind
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  std::uint32_t mode = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::optional<std::string> open;            // "ok" or an errno name; unset: not tried
  std::optional<std::string> driver_version;  // /dev/nvidiactl version ioctl answer
};

struct Uname {
  std::string sysname, release, version, machine;
};

struct UserIds {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::vector<std::uint32_t> groups;
};

struct CommandResult {
  std::vector<std::string> argv;
  std::optional<int> exit;  // unset when it did not exit by itself
  std::string stdout_text;
  std::string stderr_text;
  bool timed_out = false;
  std::optional<std::string> error;  // could not start at all ("ENOENT", ...)
};

enum class HostMode { live, root, replay };

class Host {
 public:
  virtual ~Host() = default;

  virtual HostMode mode() const = 0;
  // Reads at most max_bytes of a regular file; symlinks are followed.
  virtual Result<std::string> read_file(std::string_view path, std::size_t max_bytes) = 0;
  // Up to size bytes from offset (fewer at the end of the file): ELF files
  // are read piecewise, never whole.
  virtual Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) = 0;
  // Entry names of a directory, sorted, without "." and "..".
  virtual Result<std::vector<std::string>> list_dir(std::string_view path) = 0;
  virtual Result<std::string> read_link(std::string_view path) = 0;
  // stat(2): follows symlinks.
  virtual Result<FileStat> stat(std::string_view path) = 0;
  // A /dev path: its kind and numbers, and whether this process may open it.
  virtual Result<DeviceNode> device(std::string_view path) = 0;
  virtual std::optional<std::string> env(std::string_view name) = 0;
  // Every variable whose name starts with prefix, sorted by name.
  virtual std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) = 0;
  virtual Uname uname() = 0;
  virtual UserIds user() = 0;
  virtual CommandResult run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) = 0;

  bool exists(std::string_view path) { return stat(path).has_value(); }
};

const char* host_mode_name(HostMode mode);
const char* file_type_name(FileType type);

}  // namespace gd
