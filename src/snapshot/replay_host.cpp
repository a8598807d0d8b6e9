#include "snapshot/replay_host.h"

#include "host/local_fs.h"
#include "host/root_dir.h"
#include "snapshot/snapshot_archive.h"
#include "util/text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>

namespace gd {
namespace json = boost::json;

ReplayHost::ReplayHost(const std::string& snapshot) {
  struct stat info {};
  // What the user named is what the message names: not its snapshot.json, which a missing archive has none of.
  if (::stat(snapshot.c_str(), &info) != 0) throw SnapshotError(snapshot + ": " + errno_code(errno).message());
  if (S_ISREG(info.st_mode)) {
    auto unpacked = unpack_snapshot(snapshot);
    m_snapshot = std::move(unpacked.snapshot);
    m_files = std::move(unpacked.files);
  } else {
    m_snapshot = read_snapshot(snapshot);
    open_directory(snapshot + "/root");
  }
  for (const auto& child : m_snapshot.children) m_children.insert_or_assign(child.request.key(), child.answer);
}

// The root must be a real directory: one that is a symlink (to /) would
// make the report describe this machine. No root at all: no files.
void ReplayHost::open_directory(const std::string& root) {
  struct stat info {};
  if (::lstat(root.c_str(), &info) != 0) {
    if (errno != ENOENT) throw SnapshotError(root + ": " + errno_code(errno).message());
    m_root_error = errno_code(ENOENT);
    return;
  }
  if (!S_ISDIR(info.st_mode)) throw SnapshotError(root + ": not a directory (a snapshot's root must be one, never a symlink)");
  auto opened = RootDir::open(root, false);
  if (!opened) throw SnapshotError(root + ": " + opened.error().message());
  m_files = files_in_directory(std::move(*opened));
}

std::optional<std::error_code> ReplayHost::recorded_error(std::string_view path) const {
  const auto found = m_snapshot.errors.find(path);
  if (found == m_snapshot.errors.end()) return std::nullopt;
  const int number = errno_from_name(found->second);
  return errno_code(number ? number : EIO);
}

Result<std::string> ReplayHost::read_file(std::string_view path, std::size_t max_bytes) {
  if (auto error = recorded_error(path)) return *error;
  if (m_snapshot.pieces.count(path)) return read_pieces(path, 0, max_bytes);
  if (!m_files) return m_root_error;
  return m_files->read_file(path, max_bytes);
}

// A record device's stored records; a snapshot taken before they were read
// as such has none (ENOENT), and the check asks dmesg, which it recorded.
Result<Records> ReplayHost::read_records(std::string_view path, std::size_t max_bytes) {
  if (auto error = recorded_error(path)) return *error;
  if (!m_files) return m_root_error;
  auto text = m_files->read_file(path, 2 * max_bytes);
  if (!text) return text.error();
  Records records;
  const auto size = m_snapshot.file_sizes.find(path);
  records.read_bytes = std::max<std::uint64_t>(text->size(), size == m_snapshot.file_sizes.end() ? 0 : size->second);
  records.text = std::move(*text);
  keep_newest_records(records.text, max_bytes);
  return records;
}

// A packed file: bytes outside the recorded pieces read as zeros, as they
// would from a sparse copy; the checks never looked at them.
Result<std::string> ReplayHost::read_pieces(std::string_view path, std::uint64_t offset, std::size_t size) {
  const auto& pieces = m_snapshot.pieces.find(path)->second;
  const auto total = m_snapshot.file_sizes.count(path) ? m_snapshot.file_sizes.find(path)->second : 0;
  if (offset >= total) return std::string();
  std::string out(static_cast<std::size_t>(std::min<std::uint64_t>(size, total - offset)), '\0');
  if (!m_files) return m_root_error;
  std::uint64_t packed = 0;
  for (const auto& [start, length] : pieces) {
    const std::uint64_t from = std::max(start, offset), to = std::min(start + length, offset + out.size());
    if (from < to) {
      auto bytes = m_files->read_range(path, packed + (from - start), static_cast<std::size_t>(to - from));
      if (!bytes) return bytes.error();
      out.replace(static_cast<std::size_t>(from - offset), bytes->size(), *bytes);
    }
    packed += length;
  }
  return out;
}

Result<std::string> ReplayHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  if (auto error = recorded_error(path)) return *error;
  if (m_snapshot.pieces.count(path)) return read_pieces(path, offset, size);
  if (!m_files) return m_root_error;
  return m_files->read_range(path, offset, size);
}

Result<std::vector<std::string>> ReplayHost::list_dir(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  std::set<std::string> names;
  auto on_disk = m_files ? m_files->list_dir(path) : Result<std::vector<std::string>>(m_root_error);
  if (on_disk) names.insert(on_disk->begin(), on_disk->end());
  const auto listing = m_snapshot.listings.find(path);
  if (listing != m_snapshot.listings.end()) names.insert(listing->second.begin(), listing->second.end());
  // Device nodes live in snapshot.json, so their directories are listed from there.
  std::string prefix = std::string(path) + (path.ends_with("/") ? "" : "/");
  bool any_device = false;
  for (const auto& [device_path, node] : m_snapshot.devices) {
    if (!device_path.starts_with(prefix)) continue;
    const std::string rest = device_path.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
    any_device = true;
  }
  if (!on_disk && !any_device && !m_snapshot.directories.count(path) && listing == m_snapshot.listings.end()) return on_disk.error();
  return std::vector<std::string>(names.begin(), names.end());
}

Result<std::string> ReplayHost::read_link(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  if (!m_files) return m_root_error;
  auto target = m_files->read_link(path);
  // What the recorded system said, where the stored link says it another way.
  if (const auto original = m_snapshot.links.find(path); target && original != m_snapshot.links.end()) return original->second;
  return target;
}

Result<FileStat> ReplayHost::stat(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  if (const auto found = m_snapshot.devices.find(path); found != m_snapshot.devices.end()) {
    const auto& node = found->second;
    const FileType type = node.type;
    return FileStat{type, node.mode, node.uid, node.gid, 0};
  }
  for (const auto& [device_path, node] : m_snapshot.devices)  // a directory that holds recorded nodes
    if (device_path.starts_with(std::string(path) + "/")) return FileStat{FileType::directory, 0755, 0, 0, 0};
  auto info = m_files ? m_files->stat(path) : Result<FileStat>(m_root_error);
  if (!info && m_snapshot.directories.count(path)) return FileStat{FileType::directory, 0755, 0, 0, 0};
  if (info)
    if (const auto size = m_snapshot.file_sizes.find(path); size != m_snapshot.file_sizes.end()) info->size = size->second;
  if (info)
    if (const auto owner = m_snapshot.file_owners.find(path); owner != m_snapshot.file_owners.end()) {
      info->mode = owner->second.mode;
      info->uid = owner->second.uid;
      info->gid = owner->second.gid;
    }
  return info;
}

Result<DeviceNode> ReplayHost::device(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  const auto found = m_snapshot.devices.find(path);
  if (found == m_snapshot.devices.end()) return errno_code(ENOENT);  // a /dev path not in devices does not exist
  return found->second;
}

std::optional<std::string> ReplayHost::env(std::string_view name) {
  const auto found = m_snapshot.env.find(name);
  if (found == m_snapshot.env.end()) return std::nullopt;
  return found->second;
}

std::vector<std::pair<std::string, std::string>> ReplayHost::env_with_prefix(std::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& [name, value] : m_snapshot.env)
    if (name.starts_with(prefix)) found.emplace_back(name, value);
  return found;
}

ChildAnswer ReplayHost::ask(const ChildRequest& request) {
  if (const auto found = m_children.find(request.key()); found != m_children.end()) return found->second;
  if (request.kind == ChildKind::device_open) return legacy_device_open(request);
  ChildAnswer missing;
  missing.error = "not-recorded";
  return missing;
}

// Snapshots from before child evidence kept each node's open result in its
// device record; answer as the child would have, from those.
ChildAnswer ReplayHost::legacy_device_open(const ChildRequest& request) const {
  ChildAnswer answer;
  answer.exit = 0;
  for (std::size_t i = 0; i < request.args.size(); ++i) {
    const auto found = m_snapshot.devices.find(request.args[i]);
    if (found == m_snapshot.devices.end() || !found->second.legacy_open) continue;  // not tried when recorded
    answer.output += std::to_string(i) + " open=" + *found->second.legacy_open;
    if (const auto& version = found->second.legacy_driver_version) answer.output += " version=" + *version;
    answer.output += "\n";
  }
  return answer;
}

}  // namespace gd
