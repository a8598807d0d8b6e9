#include "loader/loader_config.h"

#include "formats/architecture.h"
#include "util/text.h"

#include <set>

namespace gd {

namespace {

// A cache of 30,000 libraries is about 2 MB.
constexpr std::size_t k_max_cache = 8 << 20;

void set_directories(Host& host, LoaderConfig& config) {
  if (config.libc == Libc::musl) {
    // musl: <prefix>/etc/ld-musl-ARCH.path; missing means the built-in list,
    // present but empty means no system directories at all.
    const auto* architecture = find_architecture(config.machine, config.bits);
    const std::string arch(architecture ? architecture->musl_arch : "unknown");
    auto text = host.read_file("/etc/ld-musl-" + arch + ".path", 64 * 1024);
    if (!text) {
      config.default_dirs = {"/lib", "/usr/local/lib", "/usr/lib"};
      return;
    }
    for (auto line : lines(*text))
      for (auto part : split(line, ':'))
        if (!trim(part).empty()) config.default_dirs.emplace_back(trim(part));
    return;
  }
  const auto* architecture = find_architecture(config.machine, config.bits);
  const std::string triplet(architecture ? architecture->triplet : "");
  if (!triplet.empty() && host.exists("/lib/" + triplet)) {  // Debian and Ubuntu multiarch
    config.default_dirs = {"/lib/" + triplet + "/", "/usr/lib/" + triplet + "/", "/lib/", "/usr/lib/"};
    config.lib_token = "lib/" + triplet;
  } else if (config.bits == 64) {
    config.default_dirs = {"/lib64/", "/usr/lib64/"};
    config.lib_token = "lib64";
  } else {
    config.default_dirs = {"/lib/", "/usr/lib/"};
    config.lib_token = "lib";
  }
  for (auto& dir : config.default_dirs) dir.pop_back();
}

void load_cache(Host& host, LoaderConfig& config) {
  if (config.libc == Libc::musl) return;
  auto bytes = host.read_file("/etc/ld.so.cache", k_max_cache + 1);
  if (!bytes) {
    config.cache_problem = "/etc/ld.so.cache: " + bytes.error().message();
    return;
  }
  if (bytes->size() > k_max_cache) {
    config.cache_problem = "/etc/ld.so.cache: larger than the 8 MB gpudoctor reads (not searched)";
    return;
  }
  auto parsed = parse_ld_cache(std::move(*bytes));
  if (!parsed) {
    config.cache_problem = "/etc/ld.so.cache: " + parsed.error();
    return;
  }
  config.cache = std::move(*parsed);
}

void read_preloads(Host& host, LoaderConfig& config) {
  auto add = [&config](std::string_view list) {
    std::string normalised(list);
    for (auto& c : normalised)
      if (c == ':' || c == '\t' || c == '\n') c = ' ';
    for (auto part : split(normalised, ' '))
      if (!part.empty()) config.preload.emplace_back(part);
  };
  if (auto value = host.env("LD_PRELOAD"); value && !config.secure) add(*value);
  if (auto file = host.read_file("/etc/ld.so.preload", 64 * 1024)) {
    for (auto line : lines(*file)) add(line.substr(0, line.find('#')));
  }
}

}  // namespace

std::vector<std::string> x86_64_levels(std::string_view cpuinfo) {
  std::set<std::string> flags;
  for (auto line : lines(cpuinfo)) {
    if (!line.starts_with("flags")) continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    for (auto flag : split(trim(line.substr(colon + 1)), ' '))
      if (!flag.empty()) flags.emplace(flag);
    break;
  }
  auto all = [&flags](std::initializer_list<const char*> needed) {
    for (const char* flag : needed)
      if (!flags.count(flag)) return false;
    return true;
  };
  std::vector<std::string> levels;
  const bool v2 = all({"cx16", "lahf_lm", "popcnt", "pni", "ssse3", "sse4_1", "sse4_2"});
  const bool v3 = v2 && all({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"});
  const bool v4 = v3 && all({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"});
  if (v4) levels.emplace_back("x86-64-v4");
  if (v3) levels.emplace_back("x86-64-v3");
  if (v2) levels.emplace_back("x86-64-v2");
  return levels;
}

LoaderConfig detect_host_loader_config(Host& host) {
  // The machine the diagnosed system runs on; an unknown one is taken as x86-64.
  const auto* architecture = architecture_of_uname(host.uname().machine);
  if (!architecture) architecture = find_architecture(k_em_x86_64, 64);
  ElfInfo typical;
  typical.machine = architecture->machine;
  typical.bits = architecture->bits;
  // A musl system has no glibc loader but has musl's, named for its architecture.
  const std::string musl_loader = "/lib/ld-musl-" + std::string(architecture->musl_arch) + ".so.1";
  if (host.exists(musl_loader) && !host.exists("/etc/ld.so.cache")) typical.interpreter = musl_loader;
  return detect_loader_config(host, typical, 0755);
}

LoaderConfig detect_loader_config(Host& host, const ElfInfo& target, std::uint32_t main_mode) {
  LoaderConfig config;
  config.machine = target.machine;
  config.bits = target.bits;
  if (target.interpreter && contains(*target.interpreter, "ld-musl")) config.libc = Libc::musl;
  config.secure = (main_mode & 06000) != 0;
  config.platform = host.uname().machine;
  set_directories(host, config);
  load_cache(host, config);
  const auto* architecture = find_architecture(config.machine, config.bits);
  const std::vector<std::int32_t> accepted = architecture ? architecture->cache_flags : std::vector<std::int32_t>{3};
  config.cache_accepted = accepted;
  config.cache_exact_flags = accepted.front();
  config.hwcaps_apply = config.libc == Libc::glibc && config.machine == k_em_x86_64 && config.bits == 64;
  if (!config.secure) config.ld_library_path = host.env("LD_LIBRARY_PATH");
  read_preloads(host, config);
  return config;
}

}  // namespace gd
