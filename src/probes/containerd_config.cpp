// containerd's configuration as containerd loads it (cmd/containerd/server/
// config: the main file, then its imports breadth first, each once; a path
// with * is a glob, relative to the importing file's directory, and one
// without that is missing stops containerd), and as its CRI plugin reads
// the runtimes: under "cri" (version 1), "io.containerd.grpc.v1.cri"
// (version 2) or "io.containerd.cri.v1.runtime" (versions 3 and 4), each
// file by its own version as containerd 2.3 reads them, later files over
// earlier ones (containerd 1.7 replaces a whole plugin section with an
// import's instead; nvidia-ctk's drop-ins copy the whole section, so both
// read them alike).
#include "probes/engine_configs.h"

#include "formats/toml_config.h"
#include "util/path.h"
#include "util/text.h"

#include <fnmatch.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace gd {
namespace {

// containerd's own, then the Kubernetes distributions that run their own containerd.
constexpr const char* k_containerd_configs[] = {
    "/etc/containerd/config.toml",
    "/var/lib/rancher/k3s/agent/etc/containerd/config.toml",
    "/var/lib/rancher/rke2/agent/etc/containerd/config.toml",
    "/var/snap/microk8s/current/args/containerd.toml",
};
constexpr std::size_t k_max_files = 16;
constexpr std::size_t k_max_runtimes = 32;

// A runtime as the files read so far define it.
struct CriRuntime {
  std::optional<std::string> type, binary;
};

// What the CRI plugin takes from the files read so far.
struct CriView {
  std::optional<std::string> default_runtime;
  std::map<std::string, CriRuntime> runtimes;
  std::optional<bool> cdi;
};

void read_cri(const TomlDocument& document, const TomlPath& plugin, CriView& view) {
  TomlPath containerd = plugin;
  containerd.push_back("containerd");
  TomlPath default_name = containerd;
  default_name.push_back("default_runtime_name");
  if (auto name = document.string(default_name)) view.default_runtime = *name;
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

// Each file by its own version. Version 1 names the plugin "cri" (or in
// full); version 2 "io.containerd.grpc.v1.cri", which containerd 2.x
// migrates into "io.containerd.cri.v1.runtime" where that table lacks a key,
// so a version 2 file's own version 3 tables count too (1.7 ignores them:
// gpudoctor reads them as 2.x does, which cannot make a failure of a
// working 2.x). Versions 3 and 4 read only "io.containerd.cri.v1.runtime":
// containerd migrates nothing in them.
void read_file_cri(const TomlDocument& document, std::int64_t version, CriView& view) {
  if (version <= 1) {
    read_cri(document, {"plugins", "cri"}, view);
    read_cri(document, {"plugins", "io.containerd.grpc.v1.cri"}, view);
  } else if (version == 2) {
    read_cri(document, {"plugins", "io.containerd.grpc.v1.cri"}, view);
    read_cri(document, {"plugins", "io.containerd.cri.v1.runtime"}, view);
  } else {
    read_cri(document, {"plugins", "io.containerd.cri.v1.runtime"}, view);
  }
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

// The main file, then its imports breadth first, each once, into the CRI plugin's view.
CriView read_files(Host& host, const std::string& main, std::string main_text, ContainerdEngineFacts& facts, ProbeNotes& notes) {
  CriView view;
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
    const std::int64_t version = document->integer({"version"}).value_or(1);
    if (path == main) facts.version = version;
    read_file_cri(*document, version, view);
    if (const auto* imports = document->find({"imports"}))
      for (const auto& written : imports->strings) add_import(host, path, written, loaded, queue, facts, notes);
  }
  return view;
}

// Each runtime, and whether the program its runc shim runs is here. A bare
// name is looked up only for containerd's own service: k3s, rke2 and
// microk8s start containerd with a PATH of their own.
void judge_runtimes(Host& host, const CriView& view, bool service_path_known, ContainerdEngineFacts& facts) {
  const std::string default_runtime = view.default_runtime.value_or("runc");
  facts.default_runtime = printable(default_runtime, 60);
  facts.default_runtime_defined = default_runtime == "runc" || view.runtimes.contains(default_runtime);
  for (const auto& [name, definition] : view.runtimes) {
    if (facts.runtimes.size() == k_max_runtimes) break;
    EngineRuntime runtime{.name = printable(name, 60), .is_default = name == default_runtime};
    if (definition.binary && runs_binary_name(definition)) {
      runtime.binary = printable(*definition.binary, 200);
      if (definition.binary->starts_with("/") || service_path_known) {
        runtime.found = engine_program_found(host, *definition.binary);
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

ContainerdEngineFacts read_containerd(Host& host, const std::string& main, std::string main_text, ProbeNotes& notes) {
  ContainerdEngineFacts facts{.config = main};
  const CriView view = read_files(host, main, std::move(main_text), facts, notes);
  judge_runtimes(host, view, main == k_containerd_configs[0], facts);
  return facts;
}

}  // namespace

std::vector<ContainerdEngineFacts> read_containerd_engines(Host& host, ProbeNotes& notes) {
  std::vector<ContainerdEngineFacts> engines;
  for (const char* config : k_containerd_configs) {
    auto file = read_engine_file(host, config, notes);
    if (!file.text) continue;
    const std::size_t noted_before = notes.unreadable.size();  // what its imports leave unread from here on
    engines.push_back(read_containerd(host, config, std::move(*file.text), notes));
    engines.back().files_not_read = notes.noted_since(noted_before);
  }
  return engines;
}

}  // namespace gd
