#include "host/snapshot_json.h"

#include "util/json_fields.h"

#include <cstdio>

namespace gd {
namespace json = boost::json;

namespace {

std::uint32_t u32_field(const json::object& object, const char* key) {
  const auto value = int_field(object, key);
  return value && *value >= 0 && *value <= 0xffffffffll ? static_cast<std::uint32_t>(*value) : 0;
}

}  // namespace

std::string mode_string(std::uint32_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", mode & 07777);
  return text;
}

std::optional<std::uint32_t> parse_mode(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  std::uint32_t mode = 0;
  for (char c : text) {
    if (c < '0' || c > '7') return std::nullopt;
    mode = mode * 8 + static_cast<std::uint32_t>(c - '0');
  }
  return mode;
}

json::object to_json(const DeviceNode& node) {
  json::object object{{"type", node.type},   {"major", node.major}, {"minor", node.minor},
                      {"mode", mode_string(node.mode)}, {"uid", node.uid},     {"gid", node.gid}};
  if (node.open) object["open"] = *node.open;
  if (node.driver_version) object["driver_version"] = *node.driver_version;
  return object;
}

json::object to_json(const Uname& uname) {
  return {{"sysname", uname.sysname}, {"release", uname.release}, {"version", uname.version},
          {"machine", uname.machine}};
}

json::object to_json(const UserIds& user) {
  json::array groups;
  for (auto group : user.groups) groups.push_back(group);
  return {{"uid", user.uid}, {"gid", user.gid}, {"groups", std::move(groups)}};
}

json::object to_json(const CommandResult& command) {
  json::array argv;
  for (const auto& arg : command.argv) argv.push_back(json::string(arg));
  json::object object{{"argv", std::move(argv)},
                      {"stdout", command.stdout_text},
                      {"stderr", command.stderr_text},
                      {"timed_out", command.timed_out}};
  object["exit"] = command.exit ? json::value(*command.exit) : json::value(nullptr);
  if (command.error) object["error"] = *command.error;
  return object;
}

DeviceNode device_from_json(const json::object& object) {
  DeviceNode node;
  node.type = string_field(object, "type");
  node.major = u32_field(object, "major");
  node.minor = u32_field(object, "minor");
  node.mode = parse_mode(string_field(object, "mode")).value_or(0);
  node.uid = u32_field(object, "uid");
  node.gid = u32_field(object, "gid");
  if (object.contains("open")) node.open = string_field(object, "open");
  if (object.contains("driver_version")) node.driver_version = string_field(object, "driver_version");
  return node;
}

Uname uname_from_json(const json::object& object) {
  return {string_field(object, "sysname"), string_field(object, "release"), string_field(object, "version"),
          string_field(object, "machine")};
}

UserIds user_from_json(const json::object& object) {
  UserIds user{u32_field(object, "uid"), u32_field(object, "gid"), {}};
  if (const auto* groups = object.if_contains("groups"); groups && groups->is_array())
    for (const auto& group : groups->get_array())
      if (group.is_int64() && group.get_int64() >= 0) user.groups.push_back(static_cast<std::uint32_t>(group.get_int64()));
  return user;
}

CommandResult command_from_json(const json::object& object) {
  CommandResult command;
  if (const auto* argv = object.if_contains("argv"); argv && argv->is_array())
    for (const auto& arg : argv->get_array())
      if (arg.is_string()) command.argv.emplace_back(arg.get_string());
  if (auto exit = int_field(object, "exit")) command.exit = static_cast<int>(*exit);
  command.stdout_text = string_field(object, "stdout");
  command.stderr_text = string_field(object, "stderr");
  if (const auto* timed_out = object.if_contains("timed_out"); timed_out && timed_out->is_bool())
    command.timed_out = timed_out->get_bool();
  if (object.contains("error")) command.error = string_field(object, "error");
  return command;
}

}  // namespace gd
