#pragma once
// The one seam to the outside world. Every probe reads files, directories,
// symlinks, device nodes, the environment, the user's ids and commands'
// output through a Host, so each check runs the same live, under --root, or
// on a replayed snapshot (see docs/snapshot-format.md).

#include "child/child_evidence.h"
#include "util/enum_names.h"
#include "util/file_type.h"
#include "util/result.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gd {


struct FileStat {
  FileType type = FileType::other;
  std::uint32_t mode = 0;  // permission bits only
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::uint64_t size = 0;
};

// What a /dev path is: stat(2) of it, nothing more. Opening it is child
// evidence (ChildKind::device_open), asked once per run by the device-nodes probe.
struct DeviceNode {
  FileType type = FileType::other;  // char_device; anything else under a /dev name is a wrong kind
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  std::uint32_t mode = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  // Recorded open results of snapshots taken before child evidence was
  // recorded as such; a replay answers device_open requests from them.
  std::optional<std::string> legacy_open, legacy_driver_version;
};

// What a record device (/dev/kmsg) held: its records back to back, the
// newest kept where they passed the cap.
struct Records {
  std::string text;
  std::uint64_t read_bytes = 0;  // all the device gave: more than text's size where the oldest were dropped
  bool dropped() const { return read_bytes > text.size(); }
};

struct Uname {
  std::string sysname, release, version, machine;
};

struct UserIds {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::vector<std::uint32_t> groups;
};

enum class HostMode { live, root, replay };
template <>
struct EnumTable<HostMode> {
  static constexpr std::array names{"live", "root", "replay"};
};

// Bounded reads: /proc and /sys files are small, and hostile ones must not
// make us read gigabytes.
inline constexpr std::size_t k_small_file = 64 * 1024;

// The seam, split by job. Components that need only one job take only that
// interface (the ELF reader takes Files&), so what they can touch is plain.

// Files, directories, symlinks and device nodes of the diagnosed system.
class Files {
 public:
  virtual ~Files() = default;
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
  // A /dev path's kind and numbers; never opens it.
  virtual Result<DeviceNode> device(std::string_view path) = 0;
  // A device that gives one record a read (/dev/kmsg): every record it holds
  // now, without waiting for the next; past max_bytes the oldest whole
  // records are dropped. A host that cannot read this machine's answers ENOSYS.
  virtual Result<Records> read_records(std::string_view path, std::size_t max_bytes) {
    (void)path;
    (void)max_bytes;
    return errno_code(ENOSYS);
  }

  bool exists(std::string_view path) { return stat(path).has_value(); }
};

// The environment, kernel and user the diagnosed programs would have.
class Environment {
 public:
  virtual ~Environment() = default;
  virtual std::optional<std::string> env(std::string_view name) = 0;
  // Every variable whose name starts with prefix, sorted by name.
  virtual std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) = 0;
  virtual Uname uname() = 0;
  virtual UserIds user() = 0;
};

// Evidence that only a child process can give (see child_evidence.h):
// opening device nodes, running commands. Live, one deadline-bounded runner
// answers; a snapshot records each request with its answer; a replay gives
// the recorded answer back.
class ChildEvidence {
 public:
  virtual ~ChildEvidence() = default;
  virtual ChildAnswer ask(const ChildRequest& request) = 0;
  // The check will ask this later: a host that runs children may start it
  // now, so that it runs beside what the check reads meanwhile. The answer
  // is still taken by ask(), in the check's order; hosts that answer at once
  // (a replay, a test's fake) ignore it.
  virtual void ask_ahead(const ChildRequest& request) { (void)request; }
  // The request answered again and again by one child kept running (see
  // ChildSession). Only a host that runs children has one; the others (a
  // replay, --root, a recording or redacting decorator, which must see
  // every answer) give none, and the request is asked again each time.
  virtual std::unique_ptr<ChildSession> open_session(const ChildRequest& request) {
    (void)request;
    return nullptr;
  }
};

class Host : public Files, public Environment, public ChildEvidence {
 public:
  virtual HostMode mode() const = 0;
  // What identifying values this host's answers hide ("2 GPU or MIG UUIDs"),
  // when they are redacted at all (a redacted snapshot, or recording one).
  virtual std::optional<std::vector<std::string>> redactions() const { return std::nullopt; }
};


}  // namespace gd
