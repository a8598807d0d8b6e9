// containerd's configuration as containerd loads it (cmd/containerd/server/
// config: the main file, then its imports breadth first, each once; a path
// with * is a glob, relative to the importing file's directory, and one
// without that is missing stops containerd), and as its CRI plugin reads
// the runtimes: under "cri" (version 1), "io.containerd.grpc.v1.cri"
// (version 2) or "io.containerd.cri.v1.runtime" (versions 3 and 4). How the
// files merge depends on the release (probes/containerd_release): 2.0 and
// later merge them key by key, each by its own version; 1.x puts a file's
// plugin section in place of the one before it, whole (nvidia-ctk's
// drop-ins copy the whole section for that reason; another tool's drop-in
// that sets one key of it drops every runtime the main file defined).
#include "probes/engine_configs.h"

#include "formats/toml_config.h"
#include "probes/containerd_release.h"
#include "util/path.h"
#include "util/text.h"

#include <fnmatch.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace gd {
namespace {

constexpr std::size_t k_max_files = 16;
constexpr std::size_t k_max_runtimes = 32;
constexpr std::string_view k_default_socket = "/run/containerd/containerd.sock";

// A runtime as the files read so far define it.
struct CriRuntime {
  std::optional<std::string> type, binary;
};

// What the CRI plugin takes from the files read so far.
struct CriView {
  std::optional<std::string> default_runtime;
  std::map<std::string, CriRuntime> runtimes;
  bool runtimes_written = false;  // a runtimes table, even an empty one: on 1.x it replaces the default that holds runc
  std::optional<bool> cdi;
};

void read_cri(const TomlDocument& document, const TomlPath& plugin, CriView& view) {
  TomlPath containerd = plugin;
  containerd.push_back("containerd");
  TomlPath default_name = containerd;
  default_name.push_back("default_runtime_name");
  if (auto name = document.string(default_name)) view.default_runtime = *name;
  const auto containerd_tables = document.tables_below(containerd);
  view.runtimes_written = std::find(containerd_tables.begin(), containerd_tables.end(), "runtimes") != containerd_tables.end();
  TomlPath runtimes = containerd;
  runtimes.push_back("runtimes");
  for (const auto& name : document.tables_below(runtimes)) {
    TomlPath runtime = runtimes;
    runtime.push_back(name);
    auto& entry = view.runtimes[name];
    TomlPath type = runtime, binary = runtime;
    type.push_back("runtime_type");
    binary.insert(binary.end(), {"options", "BinaryName"});
    if (auto written = document.string(type)) entry.type = *written;
    if (auto written = document.string(binary); written && !written->empty()) entry.binary = *written;
  }
  TomlPath cdi = plugin;
  cdi.push_back("enable_cdi");
  if (auto enabled = document.boolean(cdi)) view.cdi = enabled;
}

// The CRI plugin's tables of one file, by the key under "plugins" they are written at.
struct FileCri {
  std::string path;
  std::optional<std::int64_t> version;  // as written
  std::map<std::string, CriView, std::less<>> sections;
  std::vector<std::string> plugin_keys, disabled_plugins, required_plugins;  // what containerd 1.x validates
  std::optional<std::string> grpc_address;
};

// The CRI plugin's key under "plugins": version 1's name, version 2's, versions 3 and 4's.
constexpr std::string_view k_cri_v1 = "cri", k_cri_v2 = "io.containerd.grpc.v1.cri", k_cri_v3 = "io.containerd.cri.v1.runtime";
constexpr std::string_view k_cri_keys[] = {k_cri_v1, k_cri_v2, k_cri_v3};

FileCri read_file_sections(std::string path, const TomlDocument& document) {
  FileCri file{.path = std::move(path), .version = document.integer({"version"}), .sections = {},
               .plugin_keys = document.tables_below({"plugins"}), .disabled_plugins = {}, .required_plugins = {}, .grpc_address = {}};
  for (const auto key : k_cri_keys)
    if (std::find(file.plugin_keys.begin(), file.plugin_keys.end(), key) != file.plugin_keys.end())
      read_cri(document, {"plugins", std::string(key)}, file.sections[std::string(key)]);
  if (const auto* disabled = document.find({"disabled_plugins"})) file.disabled_plugins = disabled->strings;
  if (const auto* required = document.find({"required_plugins"})) file.required_plugins = required->strings;
  if (auto address = document.string({"grpc", "address"}); address && !address->empty()) file.grpc_address = std::move(*address);
  return file;
}

// containerd 1.x's ValidateV2 over the merged files, where the last version
// written is 2 or more: every plugin named by its URI ("cri" is version 1's
// name). Its words, as containerd says them before it exits.
std::optional<std::string> refused_by_1x(const std::vector<FileCri>& files) {
  auto uri = [](const std::string& name) { return name.starts_with("io.containerd.") && split(name, '.').size() >= 4; };
  for (const auto& [list, what] : {std::pair{&FileCri::disabled_plugins, "disabled plugin URI"}, std::pair{&FileCri::required_plugins, "required plugin URI"},
                                   std::pair{&FileCri::plugin_keys, "plugin key URI"}})
    for (const auto& file : files)
      for (const auto& name : file.*list)
        if (!uri(name)) return concat({"invalid ", what, " \"", printable(name, 60), "\" expect io.containerd.x.vx"});
  return std::nullopt;
}

// What one view sets, over another.
void merge_over(CriView& view, const CriView& over) {
  if (over.default_runtime) view.default_runtime = over.default_runtime;
  for (const auto& [name, runtime] : over.runtimes) {
    auto& entry = view.runtimes[name];
    if (runtime.type) entry.type = runtime.type;
    if (runtime.binary) entry.binary = runtime.binary;
  }
  view.runtimes_written = view.runtimes_written || over.runtimes_written;
  if (over.cdi) view.cdi = over.cdi;
}

// The keys containerd 2.x reads in a file of this version, in order.
// Version 1 names the plugin "cri" (or in full); version 2
// "io.containerd.grpc.v1.cri", which containerd 2.x migrates into
// "io.containerd.cri.v1.runtime" where that table lacks a key, so a version 2
// file's own version 3 tables count too. Versions 3 and 4 read only
// "io.containerd.cri.v1.runtime": containerd migrates nothing in them.
std::vector<std::string_view> keys_read_by_2x(std::int64_t version) {
  if (version <= 1) return {k_cri_v1, k_cri_v2};
  if (version == 2) return {k_cri_v2, k_cri_v3};
  return {k_cri_v3};
}

// containerd 2.x merges the files key by key, each by its own version.
// Where the release is not known, the files are read this way too.
CriView merge_key_by_key(const std::vector<FileCri>& files) {
  CriView view;
  for (const auto& file : files)
    for (const auto key : keys_read_by_2x(file.version.value_or(1)))
      if (auto section = file.sections.find(key); section != file.sections.end()) merge_over(view, section->second);
  return view;
}

// containerd 1.x (services/server/config mergeConfig) puts each file's
// plugin sections in place of the same key's section of the files before it,
// whole, and its CRI plugin reads "cri" where the last version written is 1,
// else "io.containerd.grpc.v1.cri" (1.x knows no later key). What a section
// defined and the one that replaced it did not is lost.
CriView merge_section_by_section(const std::vector<FileCri>& files, ContainerdEngineFacts& facts) {
  struct Section {
    CriView view;
    std::string file;
    std::vector<std::string> replaced;                          // "FILE replaced FILE's [plugins.\"KEY\"]"
    std::map<std::string, std::string> dropped_runtimes;        // a runtime and the file that defined it
    std::optional<std::pair<std::string, std::string>> dropped_default;  // the same for default_runtime_name
  };
  std::map<std::string, Section, std::less<>> sections;
  std::int64_t version = 1;
  for (const auto& file : files) {
    if (file.version.value_or(0) != 0) version = *file.version;
    for (const auto& [key, view] : file.sections) {
      if (key == k_cri_v3) continue;  // 1.x knows no such plugin
      auto& section = sections[key];
      if (!section.file.empty())
        section.replaced.push_back(printable(file.path, 200) + " replaced " + printable(section.file, 200) + "'s [plugins.\"" + key + "\"]");
      // runc is the CRI plugin's own default; what its loss costs is not a GPU matter.
      for (const auto& [name, _] : section.view.runtimes)
        if (name != "runc" && !view.runtimes.contains(name)) section.dropped_runtimes.try_emplace(name, section.file);
      for (const auto& [name, _] : view.runtimes) section.dropped_runtimes.erase(name);
      if (section.view.default_runtime && *section.view.default_runtime != "runc" && !view.default_runtime)
        section.dropped_default.emplace(*section.view.default_runtime, section.file);
      if (view.default_runtime) section.dropped_default.reset();
      section.view = view;
      section.file = file.path;
    }
  }
  if (version >= 2 && !files.empty())
    if (auto refused = refused_by_1x(files)) facts.refused = "failed to load TOML from " + printable(files.back().path, 200) + ": " + *refused;
  auto read = sections.find(version <= 1 ? k_cri_v1 : k_cri_v2);
  if (read == sections.end()) return {};
  facts.sections_replaced = read->second.replaced;
  for (const auto& [name, file] : read->second.dropped_runtimes)
    facts.runtimes_dropped.push_back(printable(name, 60) + " (" + printable(file, 200) + ")");
  if (const auto& dropped = read->second.dropped_default)
    facts.default_runtime_dropped = printable(dropped->first, 60) + " (" + printable(dropped->second, 200) + ")";
  return read->second.view;
}

// BinaryName is what the runc shim runs; other shims (kata, runsc, a wasm
// shim) run their own program and ignore it.
bool runs_binary_name(const CriRuntime& runtime) {
  return !runtime.type || runtime.type->empty() || *runtime.type == "io.containerd.runc.v2" || *runtime.type == "io.containerd.runc.v1";
}

// filepath.Clean of an absolute path.
std::string clean_path(std::string_view path) {
  std::vector<std::string_view> parts;
  for (auto part : path_components(path)) {
    if (part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (auto part : parts) out += "/" + std::string(part);
  return out.empty() ? "/" : out;
}

// The files an import names, as filepath.Glob would list them (sorted; a *
// matches a leading dot too); a pattern only in its last component, which is
// how imports are written.
std::vector<std::string> expand_import(Host& host, const std::string& pattern, ProbeNotes& notes) {
  const std::string dir(dir_name(pattern));
  if (dir.find_first_of("*?[") != std::string::npos) {
    notes.note_unreadable(pattern, "an import with a pattern above its last component: not followed");
    return {};
  }
  auto names = host.list_dir(dir);
  if (!names) return {};
  std::sort(names->begin(), names->end());
  const std::string last(base_name(pattern));
  std::vector<std::string> files;
  for (const auto& name : *names)
    if (fnmatch(last.c_str(), name.c_str(), 0) == 0) files.push_back(join_path(dir, name));
  return files;
}

// The files of one configuration expanded from an import line, or a named
// one that is missing (containerd stops at start on it).
void add_import(Host& host, const std::string& importer, const std::string& written, std::set<std::string>& loaded,
                std::deque<std::pair<std::string, std::string>>& queue, ContainerdEngineFacts& facts, ProbeNotes& notes) {
  const std::string import = written.starts_with("/") ? clean_path(written) : clean_path(join_path(dir_name(importer), written));
  const bool glob = import.find('*') != std::string::npos;
  for (auto& file : glob ? expand_import(host, import, notes) : std::vector<std::string>{import}) {
    if (loaded.contains(file)) continue;
    if (loaded.size() == k_max_files) {
      notes.note_unreadable(file, "more than " + std::to_string(k_max_files) + " containerd configuration files: this and the rest were not read");
      return;
    }
    loaded.insert(file);
    auto imported = read_engine_file(host, file, notes);
    // Only a named import that is not there stops containerd; one gpudoctor may not read is unknown to it.
    if (imported.missing && !glob) facts.missing_imports.push_back(printable(file, 200));
    if (!imported.text) continue;
    queue.emplace_back(std::move(file), std::move(*imported.text));
  }
}

// The main file, then its imports breadth first, each once, with their CRI tables.
std::vector<FileCri> read_files(Host& host, const std::string& main, std::string main_text, ContainerdEngineFacts& facts, ProbeNotes& notes) {
  std::vector<FileCri> files;
  std::deque<std::pair<std::string, std::string>> queue;  // a file and its text
  std::set<std::string> loaded = {main};
  queue.emplace_back(main, std::move(main_text));
  while (!queue.empty()) {
    auto [path, text] = std::move(queue.front());
    queue.pop_front();
    facts.files.push_back(printable(path, 200));
    auto document = read_toml(text);
    if (!document) {
      facts.problem = printable(path, 200) + ": " + document.error();
      break;
    }
    if (path == main) facts.version = document->integer({"version"}).value_or(1);
    files.push_back(read_file_sections(path, *document));
    if (const auto* imports = document->find({"imports"}))
      for (const auto& written : imports->strings) add_import(host, path, written, loaded, queue, facts, notes);
  }
  return files;
}

// Each runtime, and whether the program its runc shim runs is here. A bare
// name is looked up only on a PATH known: containerd.service's, not the one
// k3s, rke2 and microk8s start containerd with.
void judge_runtimes(Host& host, const CriView& view, const std::optional<std::string>& search_path, ContainerdEngineFacts& facts) {
  const std::string default_runtime = view.default_runtime.value_or("runc");
  facts.default_runtime = printable(default_runtime, 60);
  // runc is the CRI plugin's own default runtime; containerd 1.x (go-toml v1)
  // puts a section's runtimes table in place of that default, whole (an empty
  // table too), so there runc is defined only where no runtimes table is
  // written, or runc itself is.
  facts.default_runtime_defined =
      view.runtimes.contains(default_runtime) || (default_runtime == "runc" && (facts.major != 1 || !view.runtimes_written));
  for (const auto& [name, definition] : view.runtimes) {
    if (facts.runtimes.size() == k_max_runtimes) break;
    EngineRuntime runtime{.name = printable(name, 60), .is_default = name == default_runtime};
    if (definition.binary && runs_binary_name(definition)) {
      runtime.binary = printable(*definition.binary, 200);
      if (definition.binary->starts_with("/") || search_path) {
        runtime.found = engine_program_found(host, *definition.binary, search_path.value_or(""));
        if (!runtime.found.value.value_or(true)) {
          facts.runtimes_without_program.push_back(runtime.name + " (" + *runtime.binary + ")");
          facts.default_runtime_without_program = facts.default_runtime_without_program || runtime.is_default;
        }
      }
    }
    facts.runtimes.push_back(std::move(runtime));
  }
  facts.cdi = view.cdi;
}

ContainerdEngineFacts read_containerd(Host& host, const ContainerdInstall& install, std::string main_text, ProbeNotes& notes) {
  ContainerdEngineFacts facts{.config = printable(install.config, 200)};
  if (install.unit) facts.unit = printable(*install.unit, 200);
  read_containerd_release(host, install, facts);
  const auto files = read_files(host, install.config, std::move(main_text), facts, notes);
  const CriView view = facts.major == 1 ? merge_section_by_section(files, facts) : merge_key_by_key(files);
  judge_runtimes(host, view, install.search_path, facts);
  // Its socket, asked only where it is there (containerd has no socket
  // activation: nothing starts for the asking) and is this machine's.
  std::string socket = install.address.value_or(std::string(k_default_socket));
  if (!install.address)
    for (const auto& file : files)
      if (file.grpc_address) socket = *file.grpc_address;  // a later file's wins, as containerd merges them
  if (host.mode() != HostMode::root && socket.starts_with('/') && host.exists(socket)) facts.socket = printable(socket, 200);
  return facts;
}

}  // namespace

std::vector<ContainerdEngineFacts> read_containerd_engines(Host& host, ProbeNotes& notes) {
  std::vector<ContainerdEngineFacts> engines;
  for (const auto& install : containerd_installs(host)) {
    auto file = read_engine_file(host, install.config, notes);
    if (!file.text) continue;
    const std::size_t noted_before = notes.unreadable.size();  // what its imports leave unread from here on
    engines.push_back(read_containerd(host, install, std::move(*file.text), notes));
    engines.back().files_not_read = notes.noted_since(noted_before);
  }
  return engines;
}

}  // namespace gd
