#pragma once
// The .modinfo section of a kernel module: NUL-separated "key=value" strings
// (version, license, vermagic, firmware, ...), read through the section
// headers without loading anything. Compressed modules (.ko.xz, .ko.zst,
// .ko.gz, as kmod reads them) are decompressed in memory first, bounded.

#include "host/host.h"
#include "util/checked.h"

#include <optional>
#include <string>
#include <vector>

namespace gd {

struct ModInfo {
  std::optional<std::string> version, license, vermagic, srcversion;
  std::vector<std::string> firmware;
  // Ends in "~Module signature appended~\n": signed (by which key, the PKCS#7 blob says; not read here).
  bool signature_appended = false;
};

// "xz", "zstd" or "gzip" from the module's name (.ko.xz, .ko.zst, .ko.gz);
// nullopt for a plain .ko.
std::optional<std::string> module_compression(std::string_view path);

// The integrity check ID of a .ko.xz's stream (archive/xz.h: 0 none,
// 1 CRC32, 4 CRC64, 10 SHA-256), from its first bytes; nothing where the
// file cannot be read or is no xz stream.
std::optional<int> module_xz_check(Files& files, const std::string& path);

// How much a run may unpack of compressed modules, all together: each is
// unpacked whole (its section headers are at its end), so a directory of
// large ones costs time and memory in proportion; past the budget a module
// is not read, and says so.
struct UnpackBudget {
  std::size_t bytes = 256u * 1024 * 1024;
};

// The module's .modinfo, or why it could not be read (not ELF, no .modinfo,
// compressed data damaged or past the caps). A compressed module takes what
// it unpacks from budget; with too little left it is not read (nullopt).
Checked<ModInfo> read_modinfo(Files& files, const std::string& path);
std::optional<Checked<ModInfo>> read_modinfo(Files& files, const std::string& path, UnpackBudget& budget);
// The fields of a .modinfo section's bytes (exposed for tests and fuzzing).
ModInfo parse_modinfo(std::string_view bytes);
// The .modinfo of a module's bytes as they are on disk, compressed or not
// (exposed for fuzzing: read_modinfo reads the file and calls this).
Checked<ModInfo> modinfo_of_bytes(std::string bytes, std::optional<std::string> compression);
// The most one module may unpack to.
inline constexpr std::size_t k_max_unpacked_module = 128u * 1024 * 1024;

}  // namespace gd
