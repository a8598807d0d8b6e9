// containerd's configuration as containerd loads it (cmd/containerd/server/
// config: the main file, then its imports breadth first, each once; a path
// with * is a glob, relative to the importing file's directory, and one
// without that is missing stops containerd), and as its CRI plugin reads
// the runtimes: under "cri" (version 1), "io.containerd.grpc.v1.cri"
// (version 2) or "io.containerd.cri.v1.runtime" (versions 3 and 4), each
// file by its own version, later files over earlier ones.
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
constexpr std::size_t k_max_config = 1 << 20;
constexpr std::size_t k_max_files = 16;
constexpr std::size_t k_max_runtimes = 32;

// What the CRI plugin takes from the files read so far.
struct CriView {
  std::optional<std::string> default_runtime;
  std::map<std::string, std::optional<std::string>> runtimes;  // name -> BinaryName
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
    TomlPath binary = runtimes;
    binary.insert(binary.end(), {name, "options", "BinaryName"});
    auto& entry = view.runtimes[name];
    if (auto written = document.string(binary); written && !written->empty()) entry = *written;
  }
  TomlPath cdi = plugin;
  cdi.push_back("enable_cdi");
  if (auto enabled = document.boolean(cdi)) view.cdi = enabled;
}

// Each file by its own version's plugin name; a version 3 file may still
// hold version 2 tables, which containerd migrates where the new ones are absent.
void read_file_cri(const TomlDocument& document, std::int64_t version, CriView& view) {
  if (version <= 1) {
    read_cri(document, {"plugins", "cri"}, view);
    read_cri(document, {"plugins", "io.containerd.grpc.v1.cri"}, view);
  } else if (version == 2) {
    read_cri(document, {"plugins", "io.containerd.grpc.v1.cri"}, view);
  } else {
    read_cri(document, {"plugins", "io.containerd.grpc.v1.cri"}, view);
    read_cri(document, {"plugins", "io.containerd.cri.v1.runtime"}, view);
  }
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

// The files an import names, as filepath.Glob would list them (sorted); a
// pattern only in its last component, which is how imports are written.
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
    if (fnmatch(last.c_str(), name.c_str(), FNM_PERIOD) == 0) files.push_back(join_path(dir, name));
  return files;
}

ContainerdEngineFacts read_containerd(Host& host, const std::string& main, std::string main_text, ProbeNotes& notes) {
  ContainerdEngineFacts facts{.config = main};
  CriView view;
  std::deque<std::pair<std::string, std::string>> queue;  // a file and its text, breadth first
  std::set<std::string> loaded = {main};
  queue.emplace_back(main, std::move(main_text));
  while (!queue.empty() && !facts.problem) {
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
    const auto* imports = document->find({"imports"});
    if (!imports) continue;
    for (const auto& written : imports->strings) {
      std::string import = written.starts_with("/") ? clean_path(written) : clean_path(join_path(dir_name(path), written));
      std::vector<std::string> files;
      if (import.find('*') != std::string::npos) {
        files = expand_import(host, import, notes);
      } else {
        files.push_back(import);
      }
      for (auto& file : files) {
        if (!loaded.insert(file).second) continue;
        if (loaded.size() > k_max_files) {
          notes.note_unreadable(file, "more than " + std::to_string(k_max_files) + " containerd configuration files: this and the rest were not read");
          break;
        }
        auto imported = host.read_file(file, k_max_config + 1);
        if (!imported) {
          // containerd opens a named import and stops when it cannot; a glob lists only what is there.
          if (import.find('*') == std::string::npos) facts.missing_imports.push_back(printable(file, 200));
          continue;
        }
        if (imported->size() > k_max_config) {
          notes.note_unreadable(file, "larger than 1 MiB: not read");
          continue;
        }
        queue.emplace_back(std::move(file), std::move(*imported));
      }
    }
  }
  if (view.default_runtime) facts.default_runtime = printable(*view.default_runtime, 60);
  facts.default_runtime_defined = facts.default_runtime == "runc" || view.runtimes.contains(facts.default_runtime);
  for (const auto& [name, binary] : view.runtimes) {
    if (facts.runtimes.size() == k_max_runtimes) break;
    EngineRuntime runtime{.name = printable(name, 60), .is_default = name == facts.default_runtime};
    if (binary) {
      runtime.binary = printable(*binary, 200);
      runtime.found = engine_program_found(host, *binary);
      if (!runtime.found.value.value_or(true)) {
        facts.runtimes_without_program.push_back(runtime.name + " (" + *runtime.binary + ")");
        facts.default_runtime_without_program = facts.default_runtime_without_program || runtime.is_default;
      }
    }
    facts.runtimes.push_back(std::move(runtime));
  }
  facts.cdi = view.cdi;
  return facts;
}

}  // namespace

std::vector<ContainerdEngineFacts> read_containerd_engines(Host& host, ProbeNotes& notes) {
  std::vector<ContainerdEngineFacts> engines;
  for (const char* config : k_containerd_configs) {
    auto text = host.read_file(config, k_max_config + 1);
    if (!text) continue;
    if (text->size() > k_max_config) {
      notes.note_unreadable(config, "larger than 1 MiB: not read");
      continue;
    }
    engines.push_back(read_containerd(host, config, std::move(*text), notes));
  }
  return engines;
}

}  // namespace gd
