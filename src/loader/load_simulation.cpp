#include "loader/load_simulation.h"

#include "formats/architecture.h"

#include "host/host_paths.h"
#include "loader/search_path.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>
#include <cerrno>

namespace gd {

namespace {

constexpr std::size_t k_max_objects = 4096;

// glibc's ld.so is in every glibc process, even when the main object (a
// library given as input) names no PT_INTERP.
std::optional<std::string> default_interpreter(std::uint16_t machine, int bits) {
  const auto* architecture = find_architecture(machine, bits);
  if (!architecture) return std::nullopt;
  return std::string(architecture->glibc_loader);
}

// ldso/dynlink.c load_library: these names are the libc itself.
bool is_musl_builtin(const std::string& name) {
  for (const char* builtin : {"libc.so", "libpthread.so", "librt.so", "libm.so", "libdl.so", "libutil.so", "libxnet.so"})
    if (name == builtin || name.starts_with(std::string(builtin) + ".")) return true;
  return false;
}

}  // namespace

LoadSimulation::LoadSimulation(Host& host, LoaderConfig config) : m_host(host), m_config(std::move(config)) {}

std::string LoadSimulation::origin_of(int object) const {
  return object == 0 ? m_main_origin : dir_name(m_objects[static_cast<std::size_t>(object)].path);
}

const std::vector<std::string>& LoadSimulation::active_hwcaps() {
  if (!m_config.hwcaps) {
    auto cpuinfo = m_config.hwcaps_apply ? m_host.read_file("/proc/cpuinfo", 1 << 20) : Result<std::string>(errno_code(ENOENT));
    m_config.hwcaps = cpuinfo ? x86_64_levels(*cpuinfo) : std::vector<std::string>{};
  }
  return *m_config.hwcaps;
}

// The loader's banner ("... stable release version 2.36.") tells its glibc;
// read only when a legacy subdirectory exists at all.
bool LoadSimulation::legacy_subdirectories() {
  if (m_legacy_subdirectories) return *m_legacy_subdirectories;
  m_legacy_subdirectories = false;
  const auto interpreter = m_objects.size() > 1 ? m_objects[1].path : std::string("/lib64/ld-linux-x86-64.so.2");
  const auto text = m_host.read_file(interpreter, 8 << 20);
  const std::string marker = "release version 2.";
  const auto at = text ? text->find(marker) : std::string::npos;
  if (at == std::string::npos) return false;
  const auto minor = parse_int(std::string_view(*text).substr(at + marker.size(), 2));
  m_legacy_subdirectories = minor && *minor < 37;
  return *m_legacy_subdirectories;
}

bool LoadSimulation::directory_exists(const std::string& dir) {
  if (const auto known = m_dir_cache.find(dir); known != m_dir_cache.end()) return known->second;
  auto info = m_host.stat(dir);
  const bool exists = info && info->type == FileType::directory;
  m_dir_cache.emplace(dir, exists);
  return exists;
}

const std::vector<PathElement>& LoadSimulation::elements_of(const SearchList& list) {
  if (list.via == LoadVia::ld_library_path) {
    if (!m_ld_library_path) {
      const DstValues values{m_main_origin, m_config.lib_token, m_config.platform};
      m_ld_library_path = m_config.ld_library_path ? parse_path_list(*m_config.ld_library_path, PathListKind::ld_library_path, values)
                                                   : std::vector<PathElement>{};
    }
    return *m_ld_library_path;
  }
  static const std::vector<PathElement> none;
  const auto& elf = m_objects[static_cast<std::size_t>(list.object)].elf;
  const auto& text = list.via == LoadVia::runpath ? elf.runpath : elf.rpath;
  if (!text) return none;
  const std::pair owner{list.object, list.via};
  if (const auto parsed = m_parsed.find(owner); parsed != m_parsed.end()) return parsed->second;
  if (m_parsed.size() >= 8) m_parsed.clear();
  ++m_lists_parsed;
  const DstValues values{origin_of(list.object), m_config.lib_token, m_config.platform};
  return m_parsed[owner] = parse_path_list(*text, PathListKind::dynamic_section, values);
}

std::string LoadSimulation::detail_of(const SearchList& list, std::size_t index, const PathElement& element) const {
  if (list.via == LoadVia::ld_library_path) return "LD_LIBRARY_PATH entry " + std::to_string(index + 1) + " (" + element.original + ")";
  return std::string(list.via == LoadVia::runpath ? "RUNPATH" : "RPATH") + " of " + m_objects[static_cast<std::size_t>(list.object)].path +
         " (" + element.original + ")";
}

std::vector<LoadSimulation::SearchList> LoadSimulation::search_lists(int requester, bool for_dlopen) const {
  std::vector<SearchList> lists;
  if (m_config.libc == Libc::musl) {
    // musl: LD_LIBRARY_PATH first; RPATH and RUNPATH alike, inherited from
    // every ancestor; dlopen searches as the main program does.
    lists.push_back({LoadVia::ld_library_path});
    for (int object = for_dlopen ? 0 : requester; object >= 0; object = m_objects[static_cast<std::size_t>(object)].loader)
      lists.push_back({m_objects[static_cast<std::size_t>(object)].elf.runpath ? LoadVia::runpath : LoadVia::rpath, object});
    return lists;
  }
  if (!m_objects[static_cast<std::size_t>(requester)].elf.runpath) {
    bool main_seen = false;
    for (int object = requester; object >= 0; object = m_objects[static_cast<std::size_t>(object)].loader) {
      lists.push_back({LoadVia::rpath, object});
      main_seen = main_seen || object == 0;
    }
    if (!main_seen) lists.push_back({LoadVia::rpath, 0});
  }
  lists.push_back({LoadVia::ld_library_path});
  lists.push_back({LoadVia::runpath, requester});
  return lists;
}

std::optional<int> LoadSimulation::already_loaded(const std::string& name) const {
  const auto found = m_loaded_names.find(name);
  if (found == m_loaded_names.end()) return std::nullopt;
  return found->second;
}

// glibc's open_verify: a missing file or one for another machine is passed
// over; a file that is not ELF at all stops the whole load.
LoadSimulation::Verdict LoadSimulation::try_candidate(const std::string& path, Resolution& resolution, ElfInfo& elf) {
  auto result = read_elf(m_host, path);
  if (!result) {
    const auto& error = result.problem();
    if (error.kind == ElfErrorKind::unreadable) {
      resolution.tried.push_back({path, error.error_number == ENOENT ? "missing" : "cannot open (" + errno_name(error.error_number) + ")"});
      return Verdict::skip;
    }
    resolution.tried.push_back({path, "invalid ELF: " + error.message.substr(path.size() + 2)});
    return Verdict::fatal;  // glibc stops here; musl too, as it takes the first file it can open
  }
  if (result->bits != m_config.bits || result->machine != m_config.machine) {
    resolution.tried.push_back({path, "skipped: " + std::to_string(result->bits) + "-bit " +
                                          std::string(elf_machine_name(result->machine)) + ", not for this program"});
    return Verdict::skip;
  }
  // A cap gpudoctor reached while reading it is said where the file is named, never turned into a verdict.
  resolution.tried.push_back({path, result->limits.empty() ? std::string("found") : "found (" + result->limits.front() + ")"});
  elf = std::move(*result);
  return Verdict::found;
}

bool LoadSimulation::try_directory(const std::string& dir, LoadVia via, const std::function<std::string()>& detail,
                                   const std::string& name, Resolution& resolution, ElfInfo& elf, bool& fatal) {
  if (dir.empty() || dir.front() != '/') {
    // glibc opens these relative to the process's working directory.
    if (!m_config.cwd) {
      resolution.tried.push_back({dir.empty() ? "(empty element)" : dir,
                                  "not searched: means the process's current directory, unknown here (" + detail() + ")"});
      return false;
    }
    return try_directory(*m_config.cwd + (dir.empty() ? "" : "/" + dir), via, [&] { return detail() + ", the current directory"; },
                         name, resolution, elf, fatal);
  }
  if (++m_search_steps > k_max_search_steps) {
    if (m_search_steps == k_max_search_steps + 1 || resolution.tried.empty() || resolution.tried.back().path != "(search stopped)")
      resolution.tried.push_back({"(search stopped)", "gpudoctor's cap of " + std::to_string(k_max_search_steps) +
                                                          " directory lookups per run was reached: the rest were not searched"});
    return false;
  }
  if (!directory_exists(dir)) {
    resolution.tried.push_back({dir + "/" + name, "missing (no such directory)"});
    return false;
  }
  std::vector<std::string> candidates;
  if (m_config.hwcaps_apply && directory_exists(dir + "/glibc-hwcaps"))
    for (const auto& level : active_hwcaps()) candidates.push_back(dir + "/glibc-hwcaps/" + level + "/" + name);
  // Before 2.37 glibc also tried the legacy TLS and platform subdirectories.
  if (m_config.hwcaps_apply && (directory_exists(dir + "/tls") || directory_exists(dir + "/x86_64")) &&
      legacy_subdirectories())
    for (const char* sub : {"/tls/x86_64/x86_64/", "/tls/x86_64/", "/tls/", "/x86_64/x86_64/", "/x86_64/"})
      candidates.push_back(dir + sub + name);
  candidates.push_back(dir + "/" + name);
  for (const auto& candidate : candidates) {
    const Verdict verdict = try_candidate(candidate, resolution, elf);
    if (verdict == Verdict::skip) continue;
    if (verdict == Verdict::fatal) {
      fatal = true;
      resolution.fatal = "the loader stops at " + candidate + ", which is not a usable ELF file";
      return false;
    }
    resolution.path = candidate;
    resolution.via = via;
    resolution.via_detail = detail();
    return true;
  }
  return false;
}

Resolution LoadSimulation::resolve(const std::string& name, int requester, bool for_dlopen) {
  Resolution resolution;
  resolution.name = name;
  resolution.requested_by = m_objects[static_cast<std::size_t>(requester)].path;
  if (auto loaded = already_loaded(name)) {
    resolution.path = m_objects[static_cast<std::size_t>(*loaded)].path;
    resolution.via = LoadVia::already_loaded;
    resolution.via_detail = "loaded earlier as " + m_objects[static_cast<std::size_t>(*loaded)].name;
    return resolution;
  }
  ElfInfo elf;
  bool fatal = false;
  if (m_config.libc == Libc::musl && is_musl_builtin(name) && m_objects.size() > 1) {
    // musl's libc, libm, libpthread... are all the dynamic linker itself.
    resolution.path = m_objects[1].path;
    resolution.via = LoadVia::already_loaded;
    resolution.via_detail = "musl provides " + name + " itself";
    return resolution;
  }
  if (name.find('/') != std::string::npos) {
    if (try_candidate(name, resolution, elf) == Verdict::found) {
      resolution.path = name;
      resolution.via = LoadVia::direct;
    } else if (!resolution.tried.empty() && resolution.tried.back().outcome.starts_with("invalid")) {
      resolution.fatal = "the loader stops at " + name + ", which is not a usable ELF file";
    }
  } else {
    bool done = false;
    for (const auto& list : search_lists(requester, for_dlopen)) {
      const auto& elements = elements_of(list);
      for (std::size_t i = 0; i < elements.size() && !done; ++i)
        // Past the run's cap nothing more is searched: try_directory has said so.
        done = try_directory(elements[i].dir, list.via, [&] { return detail_of(list, i, elements[i]); }, name, resolution, elf, fatal) ||
               fatal || m_search_steps > k_max_search_steps;
      if (done) break;
    }
    const bool nodeflib = m_objects[static_cast<std::size_t>(requester)].elf.nodeflib();
    if (!resolution.path && !fatal && m_config.cache) {
      if (auto hit = m_config.cache->lookup(name, m_config.cache_exact_flags, m_config.cache_accepted,
                                            m_config.cache->hwcaps_names.empty() ? std::vector<std::string>{} : active_hwcaps())) {
        bool in_system_dir = false;
        for (const auto& dir : m_config.default_dirs) in_system_dir = in_system_dir || hit->starts_with(dir + "/");
        if (nodeflib && in_system_dir) {
          resolution.tried.push_back({*hit, "ld.so.cache entry ignored: DF_1_NODEFLIB"});
        } else {
          const Verdict verdict = try_candidate(*hit, resolution, elf);
          if (verdict == Verdict::found) {
            resolution.path = *hit;
            resolution.via = LoadVia::ld_so_cache;
            resolution.via_detail = "/etc/ld.so.cache";
          } else if (verdict == Verdict::skip) {
            resolution.tried.back().outcome = "stale ld.so.cache entry: " + resolution.tried.back().outcome;
          } else {
            fatal = true;
            resolution.fatal = "the loader stops at " + *hit + ", which is not a usable ELF file";
          }
        }
      }
    }
    if (!resolution.path && !fatal && !nodeflib)
      for (const auto& dir : m_config.default_dirs)
        if (try_directory(dir, LoadVia::default_dirs, [&] { return "default directory " + dir; }, name, resolution, elf, fatal) || fatal)
          break;
  }
  if (resolution.path && m_objects.size() < k_max_objects) {
    // The same file opened under another name is the same object (glibc compares inodes).
    const auto same_file = m_loaded_names.find(*resolution.path);
    if (same_file == m_loaded_names.end() || m_objects[static_cast<std::size_t>(same_file->second)].path != *resolution.path)
      add_object(*resolution.path, name, std::move(elf), for_dlopen ? -1 : requester);
  }
  if (resolution.tried.size() > k_max_tried_listed) {
    // The first paths and the last outcome (where it was found, or where the search stopped) stay.
    auto last = std::move(resolution.tried.back());
    const auto more = resolution.tried.size() - (k_max_tried_listed - 2);
    resolution.tried.resize(k_max_tried_listed - 2);
    resolution.tried.push_back({"(" + std::to_string(more) + " more)", "not listed: gpudoctor lists at most " +
                                                                          std::to_string(k_max_tried_listed) + " paths per library"});
    resolution.tried.push_back(std::move(last));
  }
  return resolution;
}

int LoadSimulation::add_object(const std::string& path, const std::string& name, ElfInfo elf, int loader) {
  m_objects.push_back({path, name, std::move(elf), loader});
  const int index = static_cast<int>(m_objects.size() - 1);
  // The names already_loaded() answers to; the first object keeps a name.
  const auto& object = m_objects.back();
  m_loaded_names.emplace(object.name, index);
  m_loaded_names.emplace(object.path, index);
  // glibc matches a loaded object's SONAME; musl the short name a search produced.
  if (m_config.libc == Libc::glibc && object.elf.soname) m_loaded_names.emplace(*object.elf.soname, index);
  if (m_config.libc == Libc::musl) m_loaded_names.emplace(std::string(base_name(object.path)), index);
  return index;
}

void LoadSimulation::load_needed_from(std::size_t first) {
  for (std::size_t index = first; index < m_objects.size(); ++index) {
    const auto needed = m_objects[index].elf.needed;  // copied: resolve() may grow m_objects
    for (const auto& name : needed) m_resolutions.push_back(resolve(name, static_cast<int>(index), false));
  }
}

Checked<void, ElfError> LoadSimulation::load_main(const std::string& path) {
  auto main = read_elf(m_host, path);
  if (!main) return main.problem();
  load_main(path, std::move(*main));
  return {};
}

void LoadSimulation::load_main(const std::string& path, ElfInfo main) {
  // The main program's $ORIGIN comes from /proc/self/exe: symlinks resolved.
  m_main_origin = dir_name(real_path(m_host, path));
  m_ld_library_path.reset();  // $ORIGIN in LD_LIBRARY_PATH is the main program's
  m_parsed.clear();
  add_object(path, path, std::move(main), -1);
  // The interpreter is mapped before anything else, under its PT_INTERP path.
  auto interpreter = m_objects[0].elf.interpreter;
  if (!interpreter && m_config.libc == Libc::glibc) interpreter = default_interpreter(m_config.machine, m_config.bits);
  if (interpreter) {
    auto ld_so = read_elf(m_host, *interpreter);
    if (ld_so) {
      ld_so->needed.clear();
      add_object(*interpreter, *interpreter, std::move(*ld_so), 0);
    }
  }
  const std::size_t first_new = m_objects.size();
  for (const auto& name : m_config.preload) {
    auto resolution = resolve(name, 0, false);
    resolution.via_detail = "preload; " + resolution.via_detail;
    m_resolutions.push_back(std::move(resolution));
  }
  // Main's own NEEDED come before the preloads' dependencies.
  const auto needed = m_objects[0].elf.needed;
  for (const auto& name : needed) m_resolutions.push_back(resolve(name, 0, false));
  load_needed_from(first_new);
}

void LoadSimulation::load_plain_program(const std::optional<std::string>& runpath) {
  ElfInfo plain;
  plain.machine = m_config.machine;
  plain.bits = m_config.bits;
  plain.runpath = runpath;
  m_main_origin = "/";
  add_object(k_plain_program, "(program)", std::move(plain), -1);
}

Resolution LoadSimulation::dlopen(const std::string& name, const std::string& caller_path) {
  int caller = 0;
  for (std::size_t i = 0; i < m_objects.size(); ++i)
    if (m_objects[i].path == caller_path) caller = static_cast<int>(i);
  const std::size_t first_new = m_objects.size();
  Resolution resolution = resolve(name, caller, true);
  m_resolutions.push_back(resolution);
  load_needed_from(first_new);
  return resolution;
}

}  // namespace gd
