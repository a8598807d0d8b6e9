#include "formats/oci_hook.h"

#include "util/text.h"

#include <boost/json.hpp>

#include <array>
#include <charconv>
#include <cstdint>
#include <limits>

namespace gd {
namespace {

namespace json = boost::json;

// The Go types the hook structures declare; a pointer decodes as its target.
enum class GoType { string, boolean, integer, strings, string_map, object };

const char* go_name(GoType type) {
  static constexpr std::array names{"string", "bool", "int", "[]string", "map[string]string", "struct"};
  return names[static_cast<std::size_t>(type)];
}

// encoding/json's word for what a JSON value is.
const char* json_kind(const json::value& value) {
  if (value.is_string()) return "string";
  if (value.is_bool()) return "bool";
  if (value.is_array()) return "array";
  if (value.is_object()) return "object";
  return "number";
}

// A number as short as it reads back (Go quotes the literal; 1.5 for 1.5).
std::string number_text(const json::value& value) {
  if (value.is_int64()) return std::to_string(value.get_int64());
  if (value.is_uint64()) return std::to_string(value.get_uint64());
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value.get_double()).ptr;
  return std::string(text.data(), end);
}

// Whether a value decodes into a field of that type; null decodes into any (it leaves the field as it was).
bool decodes(const json::value& value, GoType type) {
  if (value.is_null()) return true;
  switch (type) {
    case GoType::string: return value.is_string();
    case GoType::boolean: return value.is_bool();
    case GoType::integer:
      return value.is_int64() || (value.is_uint64() && value.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
    case GoType::strings:
      if (!value.is_array()) return false;
      for (const auto& item : value.get_array())
        if (!item.is_null() && !item.is_string()) return false;
      return true;
    case GoType::string_map:
      if (!value.is_object()) return false;
      for (const auto& member : value.get_object())
        if (!member.value().is_null() && !member.value().is_string()) return false;
      return true;
    case GoType::object: return value.is_object();
  }
  return false;
}

// Keys as encoding/json matches them to a field's name: ASCII letters without regard to case.
bool iequals(std::string_view a, std::string_view b) { return a.size() == b.size() && to_lower(a) == to_lower(b); }

// What Go decodes into a field: of the keys equal to its name without regard
// to case, the last one sets it; null where that one is null or there is none.
const json::value* last(const json::object& object, std::string_view name) {
  const json::value* found = nullptr;
  for (const auto& member : object)
    if (iequals(member.key(), name)) found = &member.value();
  return found && !found->is_null() ? found : nullptr;
}

struct Field {
  const char* name;
  GoType type;
};

// The first field of the object that does not decode, in encoding/json's
// words; empty where all do. struct_path is "Hook" or "Hook.when".
std::string type_error(const json::object& object, std::string_view struct_path, std::initializer_list<Field> fields) {
  for (const auto& member : object)
    for (const auto& field : fields) {
      if (!iequals(member.key(), field.name) || decodes(member.value(), field.type)) continue;
      const std::string go_type = field.type == GoType::object ? std::string(struct_path) + "." + field.name : go_name(field.type);
      std::string kind = json_kind(member.value());
      // A number refused by an int field is named with its value ("number 1.5").
      if (field.type == GoType::integer && member.value().is_number()) kind += " " + number_text(member.value());
      return concat({"json: cannot unmarshal ", kind, " into Go struct field ", struct_path, ".", field.name, " of type ", go_type});
    }
  return {};
}

std::string string_of(const json::value* value) { return value && value->is_string() ? std::string(value->get_string()) : std::string(); }

bool is_true(const json::value* value) { return value && value->is_bool() && value->get_bool(); }

Checked<OciHook> read_current(const json::object& top) {
  std::string error = type_error(top, "Hook", {{"version", GoType::string}, {"hook", GoType::object}, {"when", GoType::object}, {"stages", GoType::strings}});
  const json::value* hook = last(top, "hook");
  const json::value* when = last(top, "when");
  if (error.empty() && hook)
    error = type_error(hook->get_object(), "Hook.hook",
                       {{"path", GoType::string}, {"args", GoType::strings}, {"env", GoType::strings}, {"timeout", GoType::integer}});
  if (error.empty() && when)
    error = type_error(when->get_object(), "Hook.when",
                       {{"always", GoType::boolean}, {"annotations", GoType::string_map}, {"commands", GoType::strings}, {"hasBindMounts", GoType::boolean}});
  if (!error.empty()) return problem("1.0.0: " + error);
  OciHook result;
  if (hook) result.program = string_of(last(hook->get_object(), "path"));
  if (when) result.always = is_true(last(when->get_object(), "always"));
  if (const json::value* stages = last(top, "stages")) {
    result.stages_written = true;
    for (const auto& stage : stages->get_array()) result.stages.push_back(string_of(&stage));
  }
  return result;
}

// 0.1.0 (and a file without a version): hook names the program, stage and
// stages are one list; it converts to a 1.0.0 hook whose conditions are any-of.
Checked<OciHook> read_old(const json::object& top, std::string_view version) {
  const std::string prefix = std::string(version) + ": ";
  const std::string error = type_error(top, "Hook", {{"hook", GoType::string}, {"arguments", GoType::strings}, {"stages", GoType::strings},
                                                     {"stage", GoType::strings}, {"cmds", GoType::strings}, {"cmd", GoType::strings},
                                                     {"annotations", GoType::strings}, {"annotation", GoType::strings},
                                                     {"hasbindmounts", GoType::boolean}});
  if (!error.empty()) return problem(prefix + error);
  const json::value* hook = last(top, "hook");
  if (!hook) return problem(prefix + "missing required property: hook");
  const json::value* stages = last(top, "stages");
  const json::value* stage = last(top, "stage");
  if (stages && stage) return problem(prefix + "cannot set both 'stage' and 'stages'");
  if (!stages && !stage) return problem(prefix + "missing required property: stages");
  if (last(top, "cmds") && last(top, "cmd")) return problem(prefix + "cannot set both 'cmd' and 'cmds'");
  if (last(top, "annotations") && last(top, "annotation")) return problem(prefix + "cannot set both 'annotation' and 'annotations'");
  OciHook result{.program = string_of(hook), .stages = {}, .stages_written = true};
  for (const auto& item : (stages ? stages : stage)->get_array()) result.stages.push_back(string_of(&item));
  return result;
}

}  // namespace

Checked<OciHook> parse_oci_hook(std::string_view text) {
  boost::system::error_code error;
  const json::value document = json::parse(text, error);
  if (error) return problem("version check: " + printable(error.message(), 120));
  if (!document.is_object() && !document.is_null())
    return problem(concat({"version check: json: cannot unmarshal ", json_kind(document), " into Go value of type hooks.version"}));
  static const json::object none;
  const json::object& top = document.is_object() ? document.get_object() : none;
  if (std::string type = type_error(top, "version", {{"version", GoType::string}}); !type.empty()) return problem("version check: " + type);
  const std::string version = string_of(last(top, "version"));
  Checked<OciHook> hook = problem("");
  if (version == "1.0.0")
    hook = read_current(top);
  else if (version == "0.1.0" || version.empty())
    hook = read_old(top, version);
  else
    return problem("unrecognized hook version: \"" + printable(version, 40) + "\"");
  if (hook && hook->program.empty()) return problem("missing required property: hook.path");
  return hook;
}

bool oci_hook_stage_known(std::string_view stage, bool podman) {
  for (const char* known : {"createContainer", "createRuntime", "prestart", "poststart", "poststop", "startContainer"})
    if (stage == known) return true;
  return podman && stage == "precreate";
}

}  // namespace gd
