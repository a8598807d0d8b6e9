#include "host/replay_host.h"

#include "host/local_fs.h"
#include "host/path_chase.h"
#include "host/snapshot_json.h"

#include <algorithm>
#include <cerrno>
#include <set>

namespace gd {
namespace json = boost::json;

namespace {

constexpr std::size_t k_max_snapshot_json = 64 << 20;

const json::object* object_field(const json::object& object, const char* key) {
  const auto* value = object.if_contains(key);
  return value && value->is_object() ? &value->get_object() : nullptr;
}

}  // namespace

ReplayHost::ReplayHost(const std::string& snapshot_dir) : m_root(snapshot_dir + "/root") {
  auto text = read_local_file(snapshot_dir + "/snapshot.json", k_max_snapshot_json);
  if (!text) throw SnapshotError(snapshot_dir + "/snapshot.json: " + text.error().message());
  boost::system::error_code error;
  json::value document = json::parse(*text, error);
  if (error || !document.is_object())
    throw SnapshotError(snapshot_dir + "/snapshot.json: not a JSON object (" + error.message() + ")");
  const auto& top = document.get_object();
  const auto* format = top.if_contains("format");
  if (!format || !format->is_string() || format->get_string() != k_snapshot_format)
    throw SnapshotError(snapshot_dir + "/snapshot.json: format is not " + std::string(k_snapshot_format));

  if (const auto* env = object_field(top, "env"))
    for (const auto& [name, value] : *env)
      if (value.is_string()) m_env.emplace(std::string(name), std::string(value.get_string()));
  if (const auto* devices = object_field(top, "devices"))
    for (const auto& [path, node] : *devices)
      if (node.is_object()) m_devices.emplace(std::string(path), device_from_json(node.get_object()));
  if (const auto* errors = object_field(top, "errors"))
    for (const auto& [path, name] : *errors)
      if (name.is_string()) m_errors.emplace(std::string(path), std::string(name.get_string()));
  if (const auto* directories = top.if_contains("directories"); directories && directories->is_array())
    for (const auto& path : directories->get_array())
      if (path.is_string()) m_directories.emplace(path.get_string());
  if (const auto* sizes = object_field(top, "file_sizes"))
    for (const auto& [path, size] : *sizes)
      if (size.is_int64() && size.get_int64() >= 0) m_file_sizes.emplace(std::string(path), static_cast<std::uint64_t>(size.get_int64()));
  if (const auto* pieces = object_field(top, "pieces"))
    for (const auto& [path, table] : *pieces) {
      if (!table.is_array()) continue;
      auto& list = m_pieces[std::string(path)];
      for (const auto& piece : table.get_array()) {
        if (!piece.is_array() || piece.get_array().size() != 2) continue;
        const auto& pair = piece.get_array();
        if (pair[0].is_int64() && pair[1].is_int64() && pair[0].get_int64() >= 0 && pair[1].get_int64() >= 0)
          list.emplace_back(static_cast<std::uint64_t>(pair[0].get_int64()), static_cast<std::uint64_t>(pair[1].get_int64()));
      }
    }
  if (const auto* uname = object_field(top, "uname")) m_uname = uname_from_json(*uname);
  if (const auto* user = object_field(top, "user")) m_user = user_from_json(*user);
  if (const auto* commands = top.if_contains("commands"); commands && commands->is_array())
    for (const auto& command : commands->get_array())
      if (command.is_object()) m_children.insert(legacy_command_from_json(command.get_object()));
  if (const auto* children = top.if_contains("children"); children && children->is_array())
    for (const auto& child : children->get_array())
      if (child.is_object()) m_children.insert_or_assign(child_from_json(child.get_object()).first, child_from_json(child.get_object()).second);
}

Result<std::string> ReplayHost::local_path(std::string_view path, bool follow_final) const {
  return chase(m_root, path, follow_final ? FollowFinal::yes : FollowFinal::no);
}

std::optional<std::error_code> ReplayHost::recorded_error(std::string_view path) const {
  const auto found = m_errors.find(path);
  if (found == m_errors.end()) return std::nullopt;
  const int number = errno_from_name(found->second);
  return errno_code(number ? number : EIO);
}

Result<std::string> ReplayHost::read_file(std::string_view path, std::size_t max_bytes) {
  if (auto error = recorded_error(path)) return *error;
  if (m_pieces.count(path)) return read_pieces(path, 0, max_bytes);
  auto local = local_path(path, true);
  if (!local) return local.error();
  return read_local_file(*local, max_bytes);
}

// A packed file: bytes outside the recorded pieces read as zeros, as they
// would from a sparse copy; the checks never looked at them.
Result<std::string> ReplayHost::read_pieces(std::string_view path, std::uint64_t offset, std::size_t size) {
  const auto& pieces = m_pieces.find(path)->second;
  const auto total = m_file_sizes.count(path) ? m_file_sizes.find(path)->second : 0;
  if (offset >= total) return std::string();
  std::string out(static_cast<std::size_t>(std::min<std::uint64_t>(size, total - offset)), '\0');
  auto local = local_path(path, true);
  if (!local) return local.error();
  std::uint64_t packed = 0;
  for (const auto& [start, length] : pieces) {
    const std::uint64_t from = std::max(start, offset), to = std::min(start + length, offset + out.size());
    if (from < to) {
      auto bytes = read_local_range(*local, packed + (from - start), static_cast<std::size_t>(to - from));
      if (!bytes) return bytes.error();
      out.replace(static_cast<std::size_t>(from - offset), bytes->size(), *bytes);
    }
    packed += length;
  }
  return out;
}

Result<std::string> ReplayHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  if (auto error = recorded_error(path)) return *error;
  if (m_pieces.count(path)) return read_pieces(path, offset, size);
  auto local = local_path(path, true);
  if (!local) return local.error();
  return read_local_range(*local, offset, size);
}

Result<std::vector<std::string>> ReplayHost::list_dir(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  std::set<std::string> names;
  auto local = local_path(path, true);
  auto on_disk = local ? list_local_dir(*local) : Result<std::vector<std::string>>(local.error());
  if (on_disk) names.insert(on_disk->begin(), on_disk->end());
  // Device nodes live in snapshot.json, so their directories are listed from there.
  std::string prefix = std::string(path) + (path.ends_with("/") ? "" : "/");
  bool any_device = false;
  for (const auto& [device_path, node] : m_devices) {
    if (!device_path.starts_with(prefix)) continue;
    const std::string rest = device_path.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
    any_device = true;
  }
  if (!on_disk && !any_device && !m_directories.count(path)) return on_disk.error();
  return std::vector<std::string>(names.begin(), names.end());
}

Result<std::string> ReplayHost::read_link(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  auto local = local_path(path, false);
  if (!local) return local.error();
  return read_local_link(*local);
}

Result<FileStat> ReplayHost::stat(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  if (const auto found = m_devices.find(path); found != m_devices.end()) {
    const auto& node = found->second;
    const FileType type = node.type == "char" ? FileType::char_device
                          : node.type == "block" ? FileType::block_device
                          : node.type == "directory" ? FileType::directory
                          : node.type == "file" ? FileType::regular
                                                : FileType::other;
    return FileStat{type, node.mode, node.uid, node.gid, 0};
  }
  for (const auto& [device_path, node] : m_devices)  // a directory that holds recorded nodes
    if (device_path.starts_with(std::string(path) + "/")) return FileStat{FileType::directory, 0755, 0, 0, 0};
  auto local = local_path(path, true);
  auto info = local ? stat_local(*local) : Result<FileStat>(local.error());
  if (!info && m_directories.count(path)) return FileStat{FileType::directory, 0755, 0, 0, 0};
  if (info)
    if (const auto size = m_file_sizes.find(path); size != m_file_sizes.end()) info->size = size->second;
  return info;
}

Result<DeviceNode> ReplayHost::device(std::string_view path) {
  if (auto error = recorded_error(path)) return *error;
  const auto found = m_devices.find(path);
  if (found == m_devices.end()) return errno_code(ENOENT);  // a /dev path not in devices does not exist
  return found->second;
}

std::optional<std::string> ReplayHost::env(std::string_view name) {
  const auto found = m_env.find(name);
  if (found == m_env.end()) return std::nullopt;
  return found->second;
}

std::vector<std::pair<std::string, std::string>> ReplayHost::env_with_prefix(std::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& [name, value] : m_env)
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
    const auto found = m_devices.find(request.args[i]);
    if (found == m_devices.end() || !found->second.legacy_open) continue;  // not tried when recorded
    answer.output += std::to_string(i) + " open=" + *found->second.legacy_open;
    if (const auto& version = found->second.legacy_driver_version) answer.output += " version=" + *version;
    answer.output += "\n";
  }
  return answer;
}

}  // namespace gd
