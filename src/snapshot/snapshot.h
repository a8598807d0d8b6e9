#pragma once
// A snapshot (docs/snapshot-format.md) in one type: everything the checks
// read that is not a plain file under root/. RecordingHost fills one,
// ReplayHost plays one back, and only read_snapshot and write_snapshot
// know how snapshot.json spells it.

#include "host/host.h"

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gd {

inline constexpr const char* k_snapshot_format = "gpudoctor-snapshot/1";
// A real snapshot.json is tens of kilobytes (files are stored beside it);
// its reader refuses one larger than this.
inline constexpr std::size_t k_max_snapshot_json = 16 << 20;
// Names kept of one directory's listing: one more than the most a probe reads
// of a directory (/proc's 8,192 processes, /var/run/cdi's 4,096 specs), so a
// probe's own cap is reached in a replay exactly where it was reached live.
inline constexpr std::size_t k_max_listed_names = 8193;
// Files whose owner and mode are kept (file_owners): past this, a stat-ed
// file others may not read replays with its stored copy's.
inline constexpr std::size_t k_max_file_owners = 4096;

struct SnapshotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// stat(2)'s owner and mode of a regular file that others may not read: what
// a replay's stat answers, where the stored copy has the replayer's.
struct FileOwner {
  std::uint32_t mode = 0;  // permission bits
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
};

struct RecordedChild {
  ChildRequest request;
  ChildAnswer answer;
};

struct Snapshot {
  std::string gpudoctor_version;
  std::map<std::string, std::string, std::less<>> env;  // only the variables the checks read
  std::map<std::string, DeviceNode, std::less<>> devices;
  std::map<std::string, std::string, std::less<>> errors;  // path -> errno name (never ENOENT)
  std::set<std::string, std::less<>> directories;          // listed, so they exist even when empty
  // What each listed directory held, whether or not its entries were read
  // (a libcuda only listed, a PCI function only counted): at most k_max_listed_names each.
  std::map<std::string, std::vector<std::string>, std::less<>> listings;
  std::map<std::string, std::uint64_t, std::less<>> file_sizes;  // of files read piecewise
  std::map<std::string, FileOwner, std::less<>> file_owners;      // of stat-ed files others may not read
  // path -> (original offset, size) of each piece, stored back to back under root/
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>, std::less<>> pieces;
  // symlink path -> its target on the recorded system, where the link under
  // root/ stores another (an absolute target made relative, to stay inside)
  std::map<std::string, std::string, std::less<>> links;
  std::vector<RecordedChild> children;
  std::optional<Uname> uname;
  std::optional<UserIds> user;
  // Set when identifying values were replaced by placeholders: what kinds, how many.
  std::optional<std::vector<std::string>> redactions;
};

// DIR/snapshot.json; throws SnapshotError, naming the file and the problem,
// when it is not a gpudoctor snapshot. Mistyped fields take their defaults.
Snapshot read_snapshot(const std::string& dir);
// The same from the text of a snapshot.json; name is for error messages.
Snapshot parse_snapshot(std::string_view text, const std::string& name);
// Writes DIR/snapshot.json (DIR exists).
Result<void> write_snapshot(const std::string& dir, const Snapshot& snapshot);
// The bytes write_snapshot would write.
std::size_t snapshot_json_size(const Snapshot& snapshot);

}  // namespace gd
