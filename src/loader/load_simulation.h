#pragma once
// Simulates what the dynamic loader does for a whole process, without
// running anything: preloads, then the main object's DT_NEEDED breadth
// first, each name searched in glibc's order (or musl's) and loaded once,
// the first object with a SONAME winning for everyone after it. dlopen()
// from a loaded object uses that object's search context, as libcudart's
// dlopen("libcuda.so.1") does. Every resolution records how it was found
// and every path tried (glibc elf/dl-load.c _dl_map_object; musl ldso/dynlink.c load_library).

#include "formats/elf_file.h"
#include "host/host.h"
#include "loader/loader_config.h"
#include "loader/search_path.h"
#include "util/enum_names.h"

#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

namespace gd {

struct TriedPath {
  std::string path;
  std::string outcome;  // "missing", "wrong ELF class", "stale cache entry", ...
};

// The name under which load_plain_program's program asks for libraries.
inline constexpr const char* k_plain_program = "(a program without RPATH or RUNPATH)";

// Bounds on the work one simulation does, whatever its input.
inline constexpr std::size_t k_max_search_steps = 50000;  // directories tried, in all
inline constexpr std::size_t k_max_tried_listed = 256;    // paths listed per resolution

// How the loader reached a library, as glibc's search order names its steps.
enum class LoadVia { rpath, ld_library_path, runpath, ld_so_cache, default_dirs, already_loaded, direct };
template <>
struct EnumTable<LoadVia> {
  static constexpr std::array names{"rpath", "ld_library_path", "runpath", "ld.so.cache", "default", "already-loaded", "direct"};
};

struct Resolution {
  std::string name;
  std::optional<std::string> path;  // unset: not found (or the loader aborted)
  LoadVia via = LoadVia::direct;  // meaningful when path is set
  std::string via_detail;  // "RPATH of /opt/app/bin/app", "LD_LIBRARY_PATH entry 1 (/usr/local/cuda/lib64)"
  std::string requested_by;
  std::vector<TriedPath> tried;
  std::optional<std::string> fatal;  // the loader would abort the program here, and why
};

struct LoadedObject {
  std::string path;  // as opened; $ORIGIN of a library is its directory
  std::string name;  // as requested
  ElfInfo elf;
  int loader = -1;   // the object that first caused it to load; -1 for the main object and dlopened ones
};

class LoadSimulation {
 public:
  LoadSimulation(Host& host, LoaderConfig config);

  // Loads path as the main object, then everything it needs. An error means
  // the main object itself could not be read.
  Checked<void, ElfError> load_main(const std::string& path);
  // The same, for a main object the caller has read already.
  void load_main(const std::string& path, ElfInfo main);
  // A program with no RPATH or RUNPATH of its own: the context in which a
  // library with no particular caller is found (LD_LIBRARY_PATH, the cache,
  // the default directories).
  // With a runpath, the program carries that RUNPATH (NixOS builds every
  // program with /run/opengl-driver/lib in it).
  void load_plain_program(const std::optional<std::string>& runpath = std::nullopt);
  // dlopen(name) from an object loaded earlier; also loads what it needs.
  Resolution dlopen(const std::string& name, const std::string& caller_path);

  const std::vector<Resolution>& resolutions() const { return m_resolutions; }
  const std::vector<LoadedObject>& objects() const { return m_objects; }
  const LoaderConfig& config() const { return m_config; }
  // How many RPATH and RUNPATH lists this run parsed: once for all the names
  // a library's list is searched for, not once per name.
  std::size_t lists_parsed() const { return m_lists_parsed; }

 private:
  // One list of directories a search goes through, in order: an object's
  // RPATH or RUNPATH, or LD_LIBRARY_PATH (object -1).
  struct SearchList {
    LoadVia via;
    int object = -1;
  };
  enum class Verdict { found, skip, fatal };

  Resolution resolve(const std::string& name, int requester, bool for_dlopen);
  std::vector<SearchList> search_lists(int requester, bool for_dlopen) const;
  // A list's directories, parsed once for all the names searched in it (a
  // library's NEEDED are resolved one after another through its RUNPATH).
  // The reference holds until the next call.
  const std::vector<PathElement>& elements_of(const SearchList& list);
  std::string detail_of(const SearchList& list, std::size_t index, const PathElement& element) const;
  std::optional<int> already_loaded(const std::string& name) const;
  Verdict try_candidate(const std::string& path, Resolution& resolution, ElfInfo& elf);
  // detail says where the directory came from; made only where it is shown,
  // as a search may pass thousands of directories.
  bool try_directory(const std::string& dir, LoadVia via, const std::function<std::string()>& detail, const std::string& name,
                     Resolution& resolution, ElfInfo& elf, bool& fatal);
  int add_object(const std::string& path, const std::string& name, ElfInfo elf, int loader);
  void load_needed_from(std::size_t first);
  std::string origin_of(int object) const;
  bool directory_exists(const std::string& dir);
  // glibc-hwcaps levels of this CPU, best first; /proc/cpuinfo is read on first need.
  const std::vector<std::string>& active_hwcaps();
  bool legacy_subdirectories();

  Host& m_host;
  LoaderConfig m_config;
  std::vector<LoadedObject> m_objects;
  std::vector<Resolution> m_resolutions;
  std::string m_main_origin;
  std::unordered_map<std::string, bool> m_dir_cache;
  std::unordered_map<std::string, int> m_loaded_names;  // name, path, SONAME -> the first object with it
  // LD_LIBRARY_PATH's directories, parsed once ($ORIGIN is the main program's).
  std::optional<std::vector<PathElement>> m_ld_library_path;
  // RPATHs and RUNPATHs parsed, by object: a few at a time (a search walks
  // the RPATHs of a chain of loaders), dropped together when full.
  std::map<std::pair<int, LoadVia>, std::vector<PathElement>> m_parsed;
  std::size_t m_lists_parsed = 0;
  // Directories searched in this run, all libraries together: a crafted
  // RUNPATH of thousands of entries times many NEEDED names stops here.
  std::size_t m_search_steps = 0;
  std::optional<bool> m_legacy_subdirectories;
};

}  // namespace gd
