#include "snapshot/snapshot_json.h"

#include "host/file_mode.h"

#include "util/json_fields.h"
#include "util/text.h"

#include <cstdio>

namespace gd {
namespace json = boost::json;

namespace {

std::uint32_t u32_field(const json::object& object, const char* key) {
  const auto value = int_field(object, key);
  return value && *value >= 0 && *value <= 0xffffffffll ? static_cast<std::uint32_t>(*value) : 0;
}

std::optional<unsigned> hex_digit(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return std::nullopt;
}

std::string text_field(const json::object& object, std::string_view key) { return snapshot_bytes(string_field(object, key)); }

}  // namespace

std::string snapshot_text(std::string_view bytes) {
  if (is_valid_utf8(bytes) && (bytes.empty() || bytes.front() != '\0')) return std::string(bytes);
  // valid_utf8 writes each invalid byte as \xNN; a backslash of the original is doubled first.
  return '\0' + valid_utf8(replace_all(std::string(bytes), "\\", "\\\\"));
}

std::string snapshot_bytes(std::string_view text) {
  if (text.empty() || text.front() != '\0') return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 1; at < text.size(); ++at) {
    if (text[at] != '\\' || at + 1 >= text.size()) {
      out += text[at];
      continue;
    }
    if (text[at + 1] == '\\') {
      out += '\\';
      ++at;
      continue;
    }
    const auto high = at + 3 < text.size() && text[at + 1] == 'x' ? hex_digit(text[at + 2]) : std::nullopt;
    const auto low = high ? hex_digit(text[at + 3]) : std::nullopt;
    if (!low) {
      out += text[at];  // not our form (a hand-edited file): kept as it is
      continue;
    }
    out += static_cast<char>((*high << 4) | *low);
    at += 3;
  }
  return out;
}

json::object to_json(const DeviceNode& node) {
  json::object object{{"type", enum_name(node.type)},   {"major", node.major}, {"minor", node.minor},
                      {"mode", mode_string(node.mode)}, {"uid", node.uid},     {"gid", node.gid}};
  return object;
}

json::object to_json(const FileOwner& owner) {
  return {{"mode", mode_string(owner.mode)}, {"uid", owner.uid}, {"gid", owner.gid}};
}

json::object to_json(const Uname& uname) {
  return {{"sysname", snapshot_text(uname.sysname)}, {"release", snapshot_text(uname.release)},
          {"version", snapshot_text(uname.version)}, {"machine", snapshot_text(uname.machine)}};
}

json::object to_json(const UserIds& user) {
  json::array groups;
  for (auto group : user.groups) groups.push_back(group);
  return {{"uid", user.uid}, {"gid", user.gid}, {"groups", std::move(groups)}};
}

json::object to_json(const ChildRequest& request, const ChildAnswer& answer) {
  json::array args;
  for (const auto& arg : request.args) args.push_back(json::string(snapshot_text(arg)));
  json::object object{{"kind", child_kind_name(request.kind)},      {"args", std::move(args)},
                      {"stdout", snapshot_text(answer.output)},     {"stderr", snapshot_text(answer.error_output)},
                      {"timed_out", answer.timed_out}};
  object["exit"] = answer.exit ? json::value(*answer.exit) : json::value(nullptr);
  if (answer.signal) object["signal"] = *answer.signal;
  if (answer.error) object["error"] = snapshot_text(*answer.error);
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

FileOwner owner_from_json(const json::object& object) {
  return {parse_mode(string_field(object, "mode")).value_or(0), u32_field(object, "uid"), u32_field(object, "gid")};
}

Uname uname_from_json(const json::object& object) {
  return {text_field(object, "sysname"), text_field(object, "release"), text_field(object, "version"),
          text_field(object, "machine")};
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
  answer.output = text_field(object, "stdout");
  answer.error_output = text_field(object, "stderr");
  if (const auto timed_out = bool_field(object, "timed_out")) answer.timed_out = *timed_out;
  if (object.contains("error")) answer.error = text_field(object, "error");
  answer.truncated = bool_field(object, "truncated").value_or(false);
  return answer;
}

}  // namespace

RecordedChild child_from_json(const json::object& object) {
  ChildRequest request;
  request.kind = parse_child_kind(string_field(object, "kind")).value_or(ChildKind::command);
  for (const auto& arg : strings_field(object, "args")) request.args.push_back(snapshot_bytes(arg));
  return {std::move(request), answer_from_json(object)};
}

RecordedChild legacy_command_from_json(const json::object& object) {
  ChildRequest request;
  for (const auto& arg : strings_field(object, "argv")) request.args.push_back(snapshot_bytes(arg));
  return {std::move(request), answer_from_json(object)};
}

}  // namespace gd
