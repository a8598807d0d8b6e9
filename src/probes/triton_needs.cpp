#include "probes/triton_needs.h"

#include "host/host_paths.h"
#include "loader/loader_config.h"
#include "loader/search_path.h"
#include "util/path.h"
#include "util/text.h"

#include <algorithm>

namespace gd {

namespace {

// Where GNU ld looks for -lNAME after -L and LIBRARY_PATH (its built-in
// SEARCH_DIR list and gcc's own -L directories, multiarch first).
constexpr const char* k_linker_dirs[] = {"/usr/local/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                         "/usr/local/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                                         "/usr/local/lib64", "/lib64", "/usr/lib64", "/usr/local/lib", "/lib", "/usr/lib"};

bool holds(Host& host, const std::string& dir, const char* name) { return !dir.empty() && host.stat(dir + "/" + name).has_value(); }

void add_unique(std::vector<std::string>& dirs, std::string dir) {
  if (dirs.size() < 32 && std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(std::move(dir));
}

}  // namespace

TritonFacts check_triton(ProbeContext& context, const std::string& version, const std::string& site) {
  Host& host = context.host;
  TritonFacts triton;
  triton.version = version;
  triton.site = printable(site, 300);
  if (!context.driver_libs.libraries.empty() && context.driver_libs.libraries.front().found)
    if (const auto& real = context.driver_libs.libraries.front().real_path) triton.driver_dir = printable(dir_name(*real), 300);

  std::vector<std::string> dirs;
  if (auto path = host.env("TRITON_LIBCUDA_PATH"); path && !path->empty()) {
    // Triton takes it as it is, without looking.
    dirs.push_back(*path);
    triton.libcuda_dirs_source = "TRITON_LIBCUDA_PATH";
    triton.finds_libcuda = true;
  } else {
    const auto& config = host_loader_config(context);
    if (config.cache)
      for (std::size_t i = 0; i < config.cache->size(); ++i)
        if (const auto entry = config.cache->entry(i); entry.key.find("libcuda.so.1") != std::string_view::npos)
          add_unique(dirs, dir_name(std::string(entry.value)));
    triton.libcuda_dirs_source = dirs.empty() ? "none" : "ld.so.cache";
    if (dirs.empty())
      if (auto path = host.env("LD_LIBRARY_PATH"); path && !path->empty()) {
        for (auto dir : split(*path, ':'))
          if (holds(host, std::string(dir), "libcuda.so.1")) add_unique(dirs, std::string(dir));
        if (!dirs.empty()) triton.libcuda_dirs_source = "LD_LIBRARY_PATH";
      }
    triton.finds_libcuda = std::any_of(dirs.begin(), dirs.end(), [&](const std::string& dir) { return holds(host, dir, "libcuda.so.1"); });
  }
  for (const auto& dir : dirs) triton.libcuda_dirs.push_back(printable(dir, 300));

  if (auto cc = host.env("CC"); cc && !cc->empty()) triton.c_compiler = printable(*cc, 300);
  else if (auto gcc = find_on_path(host, "gcc")) triton.c_compiler = printable(*gcc, 300);
  else if (auto clang = find_on_path(host, "clang")) triton.c_compiler = printable(*clang, 300);

  if (!triton.finds_libcuda) return triton;
  // -lcuda: the -L directories first (its own lib directory, then the
  // libcuda directories), then LIBRARY_PATH, then the linker's defaults.
  std::vector<std::string> search{site + "/triton/backends/nvidia/lib", site + "/triton/third_party/cuda/lib"};
  for (const auto& dir : dirs) search.push_back(dir);
  if (auto path = host.env("LIBRARY_PATH"))
    for (auto dir : split(*path, ':'))
      if (!dir.empty()) search.emplace_back(dir);
  for (const char* dir : k_linker_dirs) search.emplace_back(dir);
  triton.links_libcuda = false;
  for (const auto& dir : search)
    if (holds(host, dir, "libcuda.so")) {
      triton.links_libcuda = true;
      triton.link_libcuda = printable(dir + "/libcuda.so", 300);
      break;
    }
  return triton;
}

}  // namespace gd
