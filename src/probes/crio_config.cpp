// CRI-O's configuration as crio reads it at start (cri-o internal/criocli
// and pkg/config): /etc/crio/crio.conf where it exists, then every file
// below /etc/crio/crio.conf.d in lexical order (or the file and directory
// crio.service's command line or variables name), subdirectories included
// (filepath.Walk), each decoded over what came before. A runtime's table in
// a later file replaces that runtime's whole entry: a TOML map decodes a new
// value for each key it names. At start crio refuses a default_runtime
// without a runtime table and a default runtime whose program is missing;
// any other runtime whose program is missing is dropped with a warning, and
// pods of its RuntimeClass fail. hooks_dir says where it reads OCI hooks
// (probes/oci_hooks.cpp judges them).
#include "probes/engine_configs.h"

#include "formats/toml_config.h"
#include "host/host_paths.h"
#include "probes/service_settings.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>
#include <map>

namespace gd {
namespace {

constexpr const char* k_crio_conf = "/etc/crio/crio.conf";
constexpr const char* k_crio_drop_ins = "/etc/crio/crio.conf.d";
constexpr const char* k_crio_socket = "/var/run/crio/crio.sock";
constexpr std::size_t k_max_files = 16;
constexpr std::size_t k_max_depth = 4;
constexpr std::size_t k_max_runtimes = 32;

// A runtime as the files read so far define it.
struct CrioRuntime {
  std::optional<std::string> path;  // runtime_path; unset or empty: the runtime's name on crio's PATH
  bool inherit = false;             // inherit_default_runtime: the default's program
};

struct CrioView {
  std::optional<std::string> default_runtime;
  std::optional<std::vector<std::string>> hooks_dirs;
  std::optional<std::string> listen;
  std::map<std::string, CrioRuntime> runtimes;
};

void read_settings(const TomlDocument& document, CrioView& view) {
  if (auto name = document.string({"crio", "runtime", "default_runtime"})) view.default_runtime = *name;
  if (auto socket = document.string({"crio", "api", "listen"})) view.listen = *socket;
  if (const TomlValue* dirs = document.find({"crio", "runtime", "hooks_dir"}); dirs && dirs->kind == TomlValue::Kind::array) view.hooks_dirs = dirs->strings;
  const TomlPath runtimes = {"crio", "runtime", "runtimes"};
  for (const auto& name : document.tables_below(runtimes)) {
    TomlPath path = runtimes, inherit = runtimes;
    path.insert(path.end(), {name, "runtime_path"});
    inherit.insert(inherit.end(), {name, "inherit_default_runtime"});
    CrioRuntime entry;
    if (auto written = document.string(path); written && !written->empty()) entry.path = *written;
    entry.inherit = document.boolean(inherit).value_or(false);
    view.runtimes[name] = std::move(entry);
  }
}

// The drop-ins in the order filepath.Walk visits them: each directory's
// names sorted, a subdirectory entered where its name falls. The list
// starts with crio.conf, which may be missing; one drop-in more than are
// read is enough to say that some were not.
void list_drop_ins(Host& host, const std::string& dir, std::size_t depth, std::vector<std::string>& files, ProbeNotes& notes) {
  auto names = host.list_dir(dir);
  if (!names) return;
  std::sort(names->begin(), names->end());
  for (const auto& name : *names) {
    if (files.size() > k_max_files + 1) return;
    const std::string path = join_path(dir, name);
    const auto stat = host.stat(path);
    if (stat && stat->type == FileType::directory) {
      if (depth == k_max_depth)
        notes.note_unreadable(path, "CRI-O drop-ins nested deeper than " + std::to_string(k_max_depth) + " directories: not read");
      else
        list_drop_ins(host, path, depth + 1, files, notes);
      continue;
    }
    files.push_back(path);
  }
}

// Every file into one view; the first that is not TOML stops crio, and the
// reading. The file (files' first) crio was told to read and that is not
// there stops it too; its default file missing it skips.
CrioView read_files(Host& host, const std::vector<std::string>& files, bool file_named, CrioEngineFacts& facts, ProbeNotes& notes) {
  CrioView view;
  for (const auto& file : files) {
    if (facts.files.size() == k_max_files) {
      notes.note_unreadable(file, "more than " + std::to_string(k_max_files) + " CRI-O configuration files: this and the rest were not read");
      break;
    }
    const auto read = read_engine_file(host, file, notes);
    if (read.missing && file_named && &file == &files.front()) facts.config_missing = printable(file, 200);
    if (!read.text) continue;
    facts.files.push_back(printable(file, 200));
    auto document = read_toml(*read.text);
    if (!document) {
      facts.problem = printable(file, 200) + ": " + document.error();
      break;
    }
    read_settings(*document, view);
  }
  return view;
}

// Whether crio would find a runtime's program: its path as it is, else its
// name on the PATH systemd gives crio.
void judge_runtimes(Host& host, const CrioView& view, CrioEngineFacts& facts) {
  // The built-in default (crun from CRI-O 1.31, runc before) always has a table of its own.
  const std::string default_runtime = view.default_runtime.value_or("");
  if (view.default_runtime) facts.default_runtime = printable(default_runtime, 60);
  facts.default_runtime_defined = default_runtime.empty() || default_runtime == "crun" || default_runtime == "runc" ||
                                  view.runtimes.contains(default_runtime);
  const auto default_entry = view.runtimes.find(default_runtime);
  for (const auto& [name, definition] : view.runtimes) {
    if (facts.runtimes.size() == k_max_runtimes) break;
    EngineRuntime runtime{.name = printable(name, 60), .is_default = name == default_runtime};
    std::string program = definition.path.value_or(name);
    if (definition.inherit && !runtime.is_default) {
      // The built-in default's program depends on crio's version: not judged.
      if (default_runtime.empty()) {
        facts.runtimes.push_back(std::move(runtime));
        continue;
      }
      program = default_entry != view.runtimes.end() ? default_entry->second.path.value_or(default_runtime) : default_runtime;
    }
    runtime.binary = printable(program, 200);
    runtime.found = engine_program_found(host, program);
    if (!runtime.found.value.value_or(true)) {
      facts.runtimes_without_program.push_back(runtime.name + " (" + *runtime.binary + ")");
      facts.default_runtime_without_program = facts.default_runtime_without_program || runtime.is_default;
    }
    facts.runtimes.push_back(std::move(runtime));
  }
}

// What crio takes from its command line or the CONTAINER_* variables that
// stand for its flags (internal/criocli) in place of its files: the default
// runtime, more runtimes, the hooks directories. Other files (--config,
// --config-dir) are followed, not listed (crio_files).
void read_command_line(const ServiceSettings& service, CrioEngineFacts& facts) {
  struct Setting {
    std::string_view flag, variable;
    bool sets_runtimes, sets_hooks;
  };
  constexpr Setting k_settings[] = {
      {"--default-runtime", "CONTAINER_DEFAULT_RUNTIME=", true, false},
      {"--runtimes", "CONTAINER_RUNTIMES=", true, false},
      {"--hooks-dir", "CONTAINER_HOOKS_DIR=", false, true},
  };
  auto add = [&](const Setting& setting, std::string_view value, const ServiceWord& word) {
    facts.command_line_sets_runtimes = facts.command_line_sets_runtimes || setting.sets_runtimes;
    facts.command_line_sets_hooks = facts.command_line_sets_hooks || setting.sets_hooks;
    if (facts.command_line.size() < 8) facts.command_line.push_back(printable(concat({setting.flag, "=", value, " (", word.file, ")"}), 240));
  };
  const auto words = service.command_words();
  for (std::size_t at = 0; at < words.size(); ++at)
    for (const auto& setting : k_settings) {
      const std::string_view word = words[at].text;
      if (!names_flag(word, setting.flag)) continue;
      if (word.size() > setting.flag.size()) add(setting, word.substr(setting.flag.size() + 1), words[at]);
      else if (at + 1 < words.size()) add(setting, words[at + 1].text, words[at]);
    }
  for (const auto& variable : service.variables)
    for (const auto& setting : k_settings)
      if (std::string_view(variable.text).starts_with(setting.variable))
        add(setting, std::string_view(variable.text).substr(setting.variable.size()), variable);
}

// A setting crio.service gives crio: its flag on the command line, else the
// CONTAINER_* variable that stands for it (urfave/cli takes a flag before its
// variable); nullopt where neither sets it.
std::optional<std::string> crio_setting(const ServiceSettings& service, std::initializer_list<std::string_view> flag, std::string_view variable) {
  if (auto value = go_flag_value(service.command_line(), flag); value && !value->empty()) return value;
  if (auto value = service.variable(variable); value && !value->empty()) return value;
  return std::nullopt;
}

// crio's file and drop-in directory: --config and --config-dir (or
// CONTAINER_CONFIG and CONTAINER_CONFIG_DIR), else the defaults.
struct CrioFiles {
  std::string config, drop_ins;
  bool config_named = false;  // by a flag or its variable: crio does not start without it (internal/criocli mergeConfigFiles)
};
CrioFiles crio_files(const ServiceSettings& service) {
  const auto config = crio_setting(service, {"config", "c"}, "CONTAINER_CONFIG");
  return {config.value_or(k_crio_conf), crio_setting(service, {"config-dir", "d"}, "CONTAINER_CONFIG_DIR").value_or(k_crio_drop_ins),
          config.has_value()};
}

// Where crio listens: its --listen, else the CONTAINER_LISTEN its unit gives
// it, else the files' [crio.api] listen. Asked only where that socket is
// there (crio has no socket activation: nothing starts for the asking) and
// is this machine's.
std::optional<std::string> crio_socket(Host& host, const ServiceSettings& service, const CrioView& view) {
  const std::string socket = crio_setting(service, {"listen"}, "CONTAINER_LISTEN").value_or(view.listen.value_or(k_crio_socket));
  if (host.mode() == HostMode::root || !socket.starts_with('/') || !host.exists(socket)) return std::nullopt;
  return printable(socket, 200);
}

}  // namespace

std::optional<CrioEngineFacts> read_crio_engine(Host& host, ProbeNotes& notes) {
  const std::size_t noted_before = notes.unreadable.size();  // what is noted from here on, crio read and gpudoctor did not
  const auto service = read_service_settings(host, "crio.service");
  const CrioFiles named = crio_files(service);
  std::vector<std::string> files = {named.config};
  list_drop_ins(host, named.drop_ins, 1, files, notes);
  CrioEngineFacts facts;
  facts.installed = find_on_path(host, "crio", k_service_path).has_value();
  const CrioView view = read_files(host, files, named.config_named, facts, notes);
  facts.files_not_read = notes.noted_since(noted_before);
  if (!facts.installed && facts.files.empty() && !facts.files_not_read) return std::nullopt;
  judge_runtimes(host, view, facts);
  read_command_line(service, facts);
  for (const auto& dir : view.hooks_dirs.value_or(std::vector<std::string>{"/usr/share/containers/oci/hooks.d"}))
    if (facts.hooks_dirs.size() < 8) facts.hooks_dirs.push_back(printable(dir, 200));
  facts.socket = crio_socket(host, service, view);
  return facts;
}

}  // namespace gd
