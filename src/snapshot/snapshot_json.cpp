#include "snapshot/snapshot_json.h"

#include "host/file_mode.h"

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

json::object to_json(const DeviceNode& node) {
  json::object object{{"type", enum_name(node.type)},   {"major", node.major}, {"minor", node.minor},
                      {"mode", mode_string(node.mode)}, {"uid", node.uid},     {"gid", node.gid}};
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

json::object to_json(const ChildRequest& request, const ChildAnswer& answer) {
  json::array args;
  for (const auto& arg : request.args) args.push_back(json::string(arg));
  json::object object{{"kind", child_kind_name(request.kind)}, {"args", std::move(args)},
                      {"stdout", answer.output},         {"stderr", answer.error_output},
                      {"timed_out", answer.timed_out}};
  object["exit"] = answer.exit ? json::value(*answer.exit) : json::value(nullptr);
  if (answer.signal) object["signal"] = *answer.signal;
  if (answer.error) object["error"] = *answer.error;
  if (answer.truncated) object["truncated"] = true;
  return object;
}

DeviceNode device_from_json(const json::object& object) {
  DeviceNode node;
  node.type = parse_file_type(string_field(object, "type"));
  node.major = u32_field(object, "major");
  node.minor = u32_field(object, "minor");
  node.mode = parse_mode(string_field(object, "mode")).value_or(0);
  node.uid = u32_field(object, "uid");
  node.gid = u32_field(object, "gid");
  if (object.contains("open")) node.legacy_open = string_field(object, "open");
  if (object.contains("driver_version")) node.legacy_driver_version = string_field(object, "driver_version");
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

namespace {

ChildAnswer answer_from_json(const json::object& object) {
  ChildAnswer answer;
  if (auto exit = int_field(object, "exit")) answer.exit = static_cast<int>(*exit);
  if (auto signal = int_field(object, "signal"); signal && *signal > 0 && *signal < 128) answer.signal = static_cast<int>(*signal);
  answer.output = string_field(object, "stdout");
  answer.error_output = string_field(object, "stderr");
  if (const auto timed_out = bool_field(object, "timed_out")) answer.timed_out = *timed_out;
  if (object.contains("error")) answer.error = string_field(object, "error");
  answer.truncated = bool_field(object, "truncated").value_or(false);
  return answer;
}

}  // namespace

RecordedChild child_from_json(const json::object& object) {
  ChildRequest request;
  request.kind = parse_child_kind(string_field(object, "kind")).value_or(ChildKind::command);
  request.args = strings_field(object, "args");
  return {std::move(request), answer_from_json(object)};
}

RecordedChild legacy_command_from_json(const json::object& object) {
  return {ChildRequest{ChildKind::command, strings_field(object, "argv"), {}}, answer_from_json(object)};
}

}  // namespace gd
