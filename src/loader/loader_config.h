#pragma once
// What the dynamic loader of the checked system will do, learned from its
// files: which libc (PT_INTERP names glibc's ld-linux or musl's ld-musl),
// its default directories and $LIB, the glibc-hwcaps levels this CPU
// supports, /etc/ld.so.cache, LD_LIBRARY_PATH, preloads, secure mode.

#include "formats/elf_file.h"
#include "loader/ld_cache.h"
#include "host/host.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

enum class Libc { glibc, musl };

struct LoaderConfig {
  Libc libc = Libc::glibc;
  std::vector<std::string> default_dirs;
  std::string lib_token;
  std::string platform;
  // Active glibc-hwcaps subdirectories, best first; read from /proc/cpuinfo
  // only when a glibc-hwcaps directory is met (reading cpuinfo costs ms).
  std::optional<std::vector<std::string>> hwcaps;
  bool hwcaps_apply = false;  // glibc on x86-64
  std::optional<std::string> ld_library_path;
  bool secure = false;              // setuid target: LD_LIBRARY_PATH ignored
  std::optional<LdCache> cache;
  std::string cache_problem;        // why there is no cache, when there is none
  std::int32_t cache_exact_flags = 0x0303;
  std::vector<std::int32_t> cache_accepted{0x0303};
  std::vector<std::string> preload;  // LD_PRELOAD, then /etc/ld.so.preload
  // The working directory of the process being simulated, when known (a
  // live `gpudoctor resolve`): empty and relative path elements mean it.
  std::optional<std::string> cwd;
  std::uint16_t machine = 62;
  int bits = 64;
};

// For a target ELF; main_mode is its permission bits (setuid means secure).
LoaderConfig detect_loader_config(Host& host, const ElfInfo& target, std::uint32_t main_mode);

// The loader of a typical program on this machine (uname's machine, 64-bit).
LoaderConfig detect_host_loader_config(Host& host);

// x86-64 micro-architecture levels from /proc/cpuinfo flags, best first.
std::vector<std::string> x86_64_levels(std::string_view cpuinfo);

}  // namespace gd
