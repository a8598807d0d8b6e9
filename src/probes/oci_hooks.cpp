// The OCI hooks podman and CRI-O add to containers (containers/common
// pkg/hooks, hooks.New and ReadDir), read as each engine reads them.
// podman reads every *.json of its hooks directories for each container it
// creates; crio reads them once, at start. Within a directory, sorted by
// name, a file is refused for bad JSON, a field of the wrong type, an
// unknown version or stage; a file whose program is missing fails with
// ENOENT. The directory's error is its first file's error, and hooks.New
// ignores an ENOENT: so the first file that fails decides. A missing program
// first drops that hook (and hides any refusal after it) without a word;
// a refusal first fails every container ("setting up OCI Hooks: ...") or
// keeps crio from starting. Regular expressions in "when" are not checked:
// Go's RE2 is not std::regex.
#include "probes/engine_configs.h"

#include "formats/oci_hook.h"
#include "formats/toml_config.h"
#include "host/host_paths.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

namespace gd {
namespace {

constexpr const char* k_default_hooks_dir = "/usr/share/containers/oci/hooks.d";
constexpr std::size_t k_max_hook_files = 64;
constexpr std::size_t k_max_dirs = 8;
constexpr std::size_t k_max_podman_configs = 32;

constexpr std::size_t k_max_oci_hook = 64 << 10;
constexpr std::size_t k_no_fact = static_cast<std::size_t>(-1);

// How a hook file fares, before the engine's own stage list is asked. gone:
// the name's file is not there (a dangling link), and ReadDir skips it;
// missing_program: the engines fail it with ENOENT.
enum class HookOutcome { loaded, gone, missing_program, refused, unread };

struct HookState {
  HookOutcome outcome = HookOutcome::unread;
  std::string problem;  // refused: why
  std::vector<std::string> stages;
  std::size_t fact = k_no_fact;  // its entry in OciHooksFacts::hooks
};

bool is_nvidia_hook(const std::string& program) {
  const std::string_view name = base_name(program);
  return name == "nvidia-container-runtime-hook" || name == "nvidia-container-toolkit" || name == "oci-nvidia-hook";
}

class HookReader {
 public:
  HookReader(Host& host, OciHooksFacts& facts, ProbeNotes& notes) : m_host(host), m_facts(facts), m_notes(notes) {}

  // A file's outcome, read once whichever engine asks.
  const HookState& read(const std::string& path) {
    if (auto found = m_states.find(path); found != m_states.end()) return found->second;
    HookState& state = m_states[path];
    if (m_facts.hooks.size() == k_max_hook_files) {
      if (!m_capped) m_notes.note_unreadable(path, "more than " + std::to_string(k_max_hook_files) + " OCI hook files: this and the rest were not read");
      m_capped = true;
      return state;
    }
    const auto text = m_host.read_file(path, k_max_oci_hook + 1);
    if (!text) {
      // A name whose file is gone (a dangling link) is skipped, as ReadDir skips it.
      if (text.error().value() == ENOENT) {
        state.outcome = HookOutcome::gone;
        return state;
      }
      if (text.error().value() == EISDIR) {  // a directory named *.json: read fails, and so does the engine
        state.outcome = HookOutcome::refused;
        state.problem = "read: is a directory";
        return state;
      }
      m_notes.note_unreadable(path, "cannot read: " + errno_name(text.error().value()));
      return state;
    }
    if (text->size() > k_max_oci_hook) {
      m_notes.note_unreadable(path, "larger than 64 KiB: not read");
      return state;
    }
    state.fact = m_facts.hooks.size();
    OciHookFile& fact = m_facts.hooks.emplace_back(OciHookFile{.file = printable(path, 200)});
    auto hook = parse_oci_hook(*text);
    if (!hook) {
      state.outcome = HookOutcome::refused;
      state.problem = hook.error();
      fact.problem = printable(hook.error(), 200);
      return state;
    }
    fact.program = printable(hook->program, 200);
    fact.nvidia = is_nvidia_hook(hook->program);
    fact.always = hook->always;
    state.stages = hook->stages;
    state.outcome = HookOutcome::loaded;
    if (hook->program.front() == '/') {
      // stat (podman 4), faccessat(F_OK) (fileutils.Exists, later): only ENOENT is "not there".
      const auto stat = m_host.stat(hook->program);
      fact.program_found = stat.has_value();
      if (!stat && stat.error().value() == ENOENT) {
        state.outcome = HookOutcome::missing_program;
        return state;
      }
      if (!stat && stat.error().value() == EACCES) {
        m_notes.note_unreadable(hook->program, "cannot look up the hook's program: EACCES");
        state.outcome = HookOutcome::unread;
        return state;
      }
      if (!stat) {
        state.outcome = HookOutcome::refused;
        state.problem = "stat " + hook->program + ": " + errno_name(stat.error().value());
        fact.problem = printable(state.problem, 200);
        return state;
      }
    }
    if (!hook->stages_written) {
      state.outcome = HookOutcome::refused;
      state.problem = "missing required property: stages";
      fact.problem = state.problem;
    }
    return state;
  }

  // Its entry in the facts; none for a file gone, refused unread (EISDIR), or not read.
  const OciHookFile* fact(const HookState& state) const { return state.fact < m_facts.hooks.size() ? &m_facts.hooks[state.fact] : nullptr; }
  ProbeNotes& notes() { return m_notes; }
  Host& host() { return m_host; }

 private:
  Host& m_host;
  OciHooksFacts& m_facts;
  ProbeNotes& m_notes;
  std::map<std::string, HookState> m_states;
  bool m_capped = false;
};

// What one engine makes of its directories.
struct EngineHooks {
  std::optional<std::string> refuses;
  bool unknown = false;  // a file gpudoctor did not read could have decided
  std::vector<std::string> dropped_nvidia;
  bool loads_nvidia = false;
};

EngineHooks judge_engine(HookReader& reader, const std::vector<std::string>& dirs, bool podman) {
  EngineHooks result;
  std::map<std::string, bool> loaded;  // file name -> NVIDIA's; a later directory's file replaces
  for (const auto& dir : dirs) {
    auto names = reader.host().list_dir(dir);
    if (!names) {
      const int error = names.error().value();
      if (error == ENOENT || (!podman && error == ENOTDIR)) continue;  // crio skips a hooks_dir that is not a directory
      if (error == ENOTDIR) {
        result.refuses = printable(dir, 200) + ": " + errno_name(error);
        return result;
      }
      reader.notes().note_unreadable(dir, "cannot list: " + errno_name(error));
      result.unknown = true;
      continue;
    }
    std::sort(names->begin(), names->end());
    enum class First { none, not_exist, refused, unread } first = First::none;
    std::string first_problem;
    for (const auto& name : *names) {
      if (!name.ends_with(".json")) continue;
      const std::string path = join_path(dir, name);
      const HookState& state = reader.read(path);
      HookOutcome outcome = state.outcome;
      std::string problem = state.problem;
      if (outcome == HookOutcome::loaded)
        for (const auto& stage : state.stages)
          if (!oci_hook_stage_known(stage, podman)) {
            outcome = HookOutcome::refused;
            problem = "unknown stage \"" + printable(stage, 40) + "\"";
            break;
          }
      const OciHookFile* fact = reader.fact(state);
      if (outcome == HookOutcome::loaded) loaded[name] = fact->nvidia;
      if (outcome == HookOutcome::missing_program && fact->nvidia) result.dropped_nvidia.push_back(fact->file);
      if (first != First::none) continue;
      if (outcome == HookOutcome::unread) first = First::unread;
      if (outcome == HookOutcome::missing_program) first = First::not_exist;
      if (outcome == HookOutcome::refused) {
        first = First::refused;
        first_problem = printable(path, 200) + ": " + printable(problem, 200);
      }
    }
    if (first == First::unread) result.unknown = true;
    if (first == First::refused && !result.unknown) {
      result.refuses = first_problem;
      return result;
    }
  }
  for (const auto& [name, nvidia] : loaded) result.loads_nvidia = result.loads_nvidia || nvidia;
  return result;
}

// containers/common's attributed string slices (v0.57, podman 4.8): an
// inline table {append=true} among an array's items makes that file's array,
// and every later file's, append to the value before it, until one says
// {append=false} (internal/attributedstring: the attribute stays on the
// slice the files are read into).
std::optional<bool> append_attribute(const TomlDocument& document, const TomlPath& path, std::size_t strings) {
  std::optional<bool> append;
  for (std::size_t index = 0; index <= strings; ++index) {  // one table among the strings: at most their count
    TomlPath attribute = path;
    attribute.push_back("#" + std::to_string(index));
    attribute.push_back("append");
    if (const auto value = document.boolean(attribute)) append = value;
  }
  return append;
}

// podman's hooks_dir: containers.conf as containers/common reads it
// (pkg/config/new.go systemConfigs): the distribution's, the site's and its
// drop-ins; for a user, the site's rootless files; then the user's own. Each
// later file's array replaces the one before, or appends to it (above);
// unset: the default directory.
std::vector<std::string> podman_hooks_dirs(Host& host, ProbeNotes& notes) {
  std::vector<std::string> files = {"/usr/share/containers/containers.conf", "/etc/containers/containers.conf"};
  auto add_drop_ins = [&](const std::string& dir) {
    auto names = host.list_dir(dir);
    if (!names) return;
    std::sort(names->begin(), names->end());
    for (const auto& name : *names) {
      if (!name.ends_with(".conf")) continue;
      if (files.size() == k_max_podman_configs) {
        notes.note_unreadable(join_path(dir, name), "more than " + std::to_string(k_max_podman_configs) + " containers.conf files: this and the rest were not read");
        return;
      }
      files.push_back(join_path(dir, name));
    }
  };
  add_drop_ins("/etc/containers/containers.conf.d");
  if (const auto uid = host.user().uid; uid > 0) {
    files.push_back("/etc/containers/containers.rootless.conf");
    add_drop_ins("/etc/containers/containers.rootless.conf.d");
    add_drop_ins("/etc/containers/containers.rootless.conf.d/" + std::to_string(uid));
  }
  if (const auto config = user_config_dir(host)) {
    files.push_back(*config + "/containers/containers.conf");
    add_drop_ins(*config + "/containers/containers.conf.d");
  }
  std::vector<std::string> dirs{k_default_hooks_dir};
  bool append = false;
  for (const auto& file : files) {
    const auto read = read_engine_file(host, file, notes);
    if (!read.text) continue;
    const auto document = read_toml(*read.text);
    if (!document) {
      notes.note_unreadable(file, "not read as TOML (" + document.error() + "): podman refuses it too");
      continue;
    }
    const TomlValue* value = document->find({"engine", "hooks_dir"});
    if (!value || value->kind != TomlValue::Kind::array) continue;
    append = append_attribute(*document, {"engine", "hooks_dir"}, value->strings.size()).value_or(append);
    if (!append) dirs.clear();
    dirs.insert(dirs.end(), value->strings.begin(), value->strings.end());
    if (dirs.size() > k_max_dirs) dirs.resize(k_max_dirs);
  }
  return dirs;
}

}  // namespace

std::optional<OciHooksFacts> read_oci_hooks(Host& host, const std::optional<CrioEngineFacts>& crio, ProbeNotes& notes) {
  OciHooksFacts facts;
  facts.podman = find_on_path(host, "podman", k_service_path).has_value();
  const bool crio_here = crio && crio->installed;
  const std::size_t noted_before = notes.unreadable.size();
  HookReader reader(host, facts, notes);
  std::set<std::string> dropped;
  auto judge = [&](const std::vector<std::string>& dirs, bool podman, std::optional<std::string>& refuses) {
    const EngineHooks engine = judge_engine(reader, dirs, podman);
    if (engine.unknown) return;
    refuses = engine.refuses;
    if (!engine.refuses && !engine.loads_nvidia) dropped.insert(engine.dropped_nvidia.begin(), engine.dropped_nvidia.end());
  };
  if (facts.podman) {
    const std::size_t noted = notes.unreadable.size();
    const auto dirs = podman_hooks_dirs(host, notes);
    for (const auto& dir : dirs) facts.podman_dirs.push_back(printable(dir, 200));
    if (!notes.noted_since(noted)) judge(dirs, true, facts.podman_refuses);  // else where podman reads hooks is not known
  }
  if (crio_here) judge(crio->hooks_dirs, false, facts.crio_refuses);
  if (!facts.podman && !crio_here) {
    // Neither engine: the hooks where NVIDIA's packages put them are listed, and judged for none.
    auto names = host.list_dir(k_default_hooks_dir);
    if (!names) return std::nullopt;
    std::sort(names->begin(), names->end());
    for (const auto& name : *names)
      if (name.ends_with(".json")) reader.read(join_path(k_default_hooks_dir, name));
    if (facts.hooks.empty() && !notes.noted_since(noted_before)) return std::nullopt;
  }
  facts.nvidia_hooks_dropped.assign(dropped.begin(), dropped.end());
  facts.files_not_read = notes.noted_since(noted_before);
  return facts;
}

}  // namespace gd
