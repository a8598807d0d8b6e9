#include "snapshot/snapshot.h"

#include "host/local_fs.h"
#include "snapshot/snapshot_json.h"
#include "util/json_fields.h"
#include "util/json_pretty.h"
#include "util/text.h"

#include <algorithm>
#include <cerrno>
#include <fstream>

namespace gd {
namespace json = boost::json;

namespace {

// A real snapshot.json is tens of kilobytes (files are stored beside it);
// the caps keep a hostile one from costing more than a few tens of MB.
constexpr std::size_t k_max_json_values = 1'000'000;  // ',' and ':' counted before parsing
constexpr std::size_t k_max_env = 65536;               // more than any real environment
constexpr std::size_t k_max_env_value = 128 * 1024;    // Linux's MAX_ARG_STRLEN: no variable can be longer

void read_pieces(const json::object& top, Snapshot& snapshot) {
  if (const auto* sizes = object_field(top, "file_sizes"))
    for (const auto& [path, size] : *sizes)
      if (size.is_int64() && size.get_int64() >= 0)
        snapshot.file_sizes.emplace(snapshot_bytes(path), static_cast<std::uint64_t>(size.get_int64()));
  if (const auto* owners = object_field(top, "file_owners"))
    for (const auto& [path, owner] : *owners)
      if (owner.is_object())
        snapshot.file_owners.emplace(snapshot_bytes(path), owner_from_json(owner.get_object()));
  if (const auto* pieces = object_field(top, "pieces"))
    for (const auto& [path, table] : *pieces) {
      if (!table.is_array()) continue;
      auto& list = snapshot.pieces[snapshot_bytes(path)];
      for (const auto& piece : table.get_array()) {
        if (!piece.is_array() || piece.get_array().size() != 2) continue;
        const auto& pair = piece.get_array();
        if (pair[0].is_int64() && pair[1].is_int64() && pair[0].get_int64() >= 0 && pair[1].get_int64() >= 0)
          list.emplace_back(static_cast<std::uint64_t>(pair[0].get_int64()), static_cast<std::uint64_t>(pair[1].get_int64()));
      }
    }
}

Snapshot snapshot_from_json(const json::object& top) {
  Snapshot snapshot;
  // {"version": V} as every output writes it; a bare string in snapshots before that.
  if (const auto* who = top.if_contains("gpudoctor"); who && who->is_object()) snapshot.gpudoctor_version = string_field(who->get_object(), "version");
  else snapshot.gpudoctor_version = string_field(top, "gpudoctor");
  if (const auto* env = object_field(top, "env")) {
    if (env->size() > k_max_env)
      throw SnapshotError("env holds " + std::to_string(env->size()) + " variables, more than the " + std::to_string(k_max_env) + " gpudoctor accepts");
    for (const auto& [name, value] : *env) {
      if (!value.is_string()) continue;
      // The limit is on the variable's bytes: its written form may be five times longer (\xNN).
      auto bytes = snapshot_bytes(value.get_string());
      if (bytes.size() > k_max_env_value)
        throw SnapshotError("env " + printable(name, 60) + " is longer than Linux allows a variable to be (128 KiB)");
      snapshot.env.emplace(snapshot_bytes(name), std::move(bytes));
    }
  }
  if (const auto* devices = object_field(top, "devices"))
    for (const auto& [path, node] : *devices)
      if (node.is_object()) snapshot.devices.emplace(snapshot_bytes(path), device_from_json(node.get_object()));
  if (const auto* listings = object_field(top, "listings"))
    for (const auto& [path, names] : *listings) {
      if (!names.is_array()) continue;
      auto& list = snapshot.listings[snapshot_bytes(path)];
      for (const auto& name : names.get_array())
        if (name.is_string() && list.size() < k_max_listed_names) list.push_back(snapshot_bytes(name.get_string()));
    }
  if (const auto* links = object_field(top, "links"))
    for (const auto& [path, target] : *links)
      if (target.is_string()) snapshot.links.emplace(snapshot_bytes(path), snapshot_bytes(target.get_string()));
  if (const auto* errors = object_field(top, "errors"))
    for (const auto& [path, name] : *errors)
      if (name.is_string()) snapshot.errors.emplace(snapshot_bytes(path), std::string(name.get_string()));
  if (const auto* directories = array_field(top, "directories"))
    for (const auto& path : *directories)
      if (path.is_string()) snapshot.directories.insert(snapshot_bytes(path.get_string()));
  read_pieces(top, snapshot);
  if (const auto* redactions = array_field(top, "redacted")) {
    snapshot.redactions.emplace();
    for (const auto& line : *redactions)
      if (line.is_string() && snapshot.redactions->size() < 64) snapshot.redactions->emplace_back(line.get_string());
  }
  if (const auto* uname = object_field(top, "uname")) snapshot.uname = uname_from_json(*uname);
  if (const auto* user = object_field(top, "user")) snapshot.user = user_from_json(*user);
  // Older snapshots kept commands apart; they read as command children.
  if (const auto* commands = array_field(top, "commands"))
    for (const auto& command : *commands)
      if (command.is_object()) snapshot.children.push_back(legacy_command_from_json(command.get_object()));
  if (const auto* children = array_field(top, "children"))
    for (const auto& child : *children)
      if (child.is_object()) snapshot.children.push_back(child_from_json(child.get_object()));
  return snapshot;
}

json::object snapshot_to_json(const Snapshot& snapshot) {
  json::object env, devices, errors, sizes, owners, pieces, links, listings;
  for (const auto& [path, names] : snapshot.listings) {
    json::array list;
    for (const auto& name : names) list.push_back(json::string(snapshot_text(name)));
    listings[snapshot_text(path)] = std::move(list);
  }
  for (const auto& [path, target] : snapshot.links) links[snapshot_text(path)] = snapshot_text(target);
  for (const auto& [name, value] : snapshot.env) env[snapshot_text(name)] = snapshot_text(value);
  for (const auto& [path, node] : snapshot.devices) devices[snapshot_text(path)] = to_json(node);
  for (const auto& [path, name] : snapshot.errors) errors[snapshot_text(path)] = name;
  for (const auto& [path, size] : snapshot.file_sizes) sizes[snapshot_text(path)] = size;
  for (const auto& [path, owner] : snapshot.file_owners) owners[snapshot_text(path)] = to_json(owner);
  for (const auto& [path, list] : snapshot.pieces) {
    json::array table;
    for (const auto& [offset, size] : list) table.push_back(json::array{offset, size});
    pieces[snapshot_text(path)] = std::move(table);
  }
  json::array children, directories;
  for (const auto& child : snapshot.children) children.push_back(to_json(child.request, child.answer));
  for (const auto& path : snapshot.directories) directories.push_back(json::string(snapshot_text(path)));
  json::object top{{"schema", k_snapshot_format}, {"gpudoctor", json::object{{"version", snapshot.gpudoctor_version}}}, {"env", std::move(env)},
                   {"devices", std::move(devices)}, {"children", std::move(children)}};
  if (snapshot.uname) top["uname"] = to_json(*snapshot.uname);
  if (snapshot.user) top["user"] = to_json(*snapshot.user);
  if (snapshot.redactions) top["redacted"] = json::array(snapshot.redactions->begin(), snapshot.redactions->end());
  if (!errors.empty()) top["errors"] = std::move(errors);
  if (!links.empty()) top["links"] = std::move(links);
  if (!listings.empty()) top["listings"] = std::move(listings);
  if (!directories.empty()) top["directories"] = std::move(directories);
  if (!sizes.empty()) top["file_sizes"] = std::move(sizes);
  if (!owners.empty()) top["file_owners"] = std::move(owners);
  if (!pieces.empty()) top["pieces"] = std::move(pieces);
  return top;
}

}  // namespace

Snapshot read_snapshot(const std::string& dir) {
  const std::string path = dir + "/snapshot.json";
  auto text = read_local_file(path, k_max_snapshot_json + 1);
  // read_local_file refuses anything but a regular file (a FIFO would hang us) with EINVAL.
  if (!text && text.error().value() == EINVAL) throw SnapshotError(path + ": not a regular file");
  if (!text) throw SnapshotError(path + ": " + text.error().message());
  return parse_snapshot(*text, path);
}

Snapshot parse_snapshot(std::string_view text, const std::string& path) {
  if (text.size() > k_max_snapshot_json)
    throw SnapshotError(path + ": larger than the " + std::to_string(k_max_snapshot_json >> 20) + " MB limit");
  if (const auto separators = static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return c == ',' || c == ':'; }));
      separators > k_max_json_values)
    throw SnapshotError(path + ": holds more than " + std::to_string(k_max_json_values) + " values, which no real snapshot does");
  boost::system::error_code error;
  // Our own snapshots keep the recorded bytes exactly, valid UTF-8 or not
  // (a path or variable may hold any bytes).
  json::parse_options options;
  options.allow_invalid_utf8 = true;
  json::value document = json::parse(text, error, {}, options);
  if (error) throw SnapshotError(path + ": not JSON (" + error.message() + ")");
  if (!document.is_object()) throw SnapshotError(path + ": the top level is not a JSON object");
  const auto& top = document.get_object();
  // "schema", as every output names its version; "format" in snapshots written before.
  const auto* format = top.if_contains("schema");
  if (!format) format = top.if_contains("format");
  if (!format || !format->is_string() || format->get_string() != k_snapshot_format)
    throw SnapshotError(path + ": schema is not " + std::string(k_snapshot_format));
  return snapshot_from_json(top);
}

std::size_t snapshot_json_size(const Snapshot& snapshot) { return pretty_json(snapshot_to_json(snapshot)).size(); }

Result<void> write_snapshot(const std::string& dir, const Snapshot& snapshot) {
  std::ofstream out(dir + "/snapshot.json", std::ios::binary);
  out << pretty_json(snapshot_to_json(snapshot));
  if (!out) return errno_code(EIO);
  return {};
}

}  // namespace gd
