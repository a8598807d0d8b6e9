#include "formats/modinfo.h"

#include "archive/gzip.h"
#include "archive/xz.h"
#include "archive/zstd.h"
#include "formats/elf_file.h"
#include "util/text.h"

namespace gd {
namespace {

constexpr std::uint64_t k_max_modinfo = 64 * 1024;  // nvidia.ko's is a few kilobytes
constexpr std::size_t k_max_value = 512;
// nvidia.ko of the proprietary flavour is about 60 MB unpacked, the open one
// about 15 MB; its .ko.xz about a third of that (k_max_unpacked_module: 128 MiB).
constexpr std::size_t k_max_compressed = 128u * 1024 * 1024;

// One decompressed module seen as a file, so that the one ELF section reader
// reads it as it reads any other.
class UnpackedModule final : public Files {
 public:
  explicit UnpackedModule(std::string bytes) : m_bytes(std::move(bytes)) {}
  Result<std::string> read_file(std::string_view, std::size_t max_bytes) override { return m_bytes.substr(0, max_bytes); }
  Result<std::string> read_range(std::string_view, std::uint64_t offset, std::size_t size) override {
    if (offset > m_bytes.size()) return std::string();
    return m_bytes.substr(static_cast<std::size_t>(offset), size);
  }
  Result<std::vector<std::string>> list_dir(std::string_view) override { return errno_code(ENOTDIR); }
  Result<std::string> read_link(std::string_view) override { return errno_code(EINVAL); }
  Result<FileStat> stat(std::string_view) override {
    FileStat stat;
    stat.type = FileType::regular;
    stat.size = m_bytes.size();
    return stat;
  }
  Result<DeviceNode> device(std::string_view) override { return errno_code(ENODEV); }

 private:
  std::string m_bytes;
};

// include/linux/module_signature.h: what scripts/sign-file appends last.
constexpr std::string_view k_signature_magic = "~Module signature appended~\n";

bool signature_appended(Files& files, const std::string& path) {
  const auto info = files.stat(path);
  if (!info || info->size < k_signature_magic.size()) return false;
  const auto tail = files.read_range(path, info->size - k_signature_magic.size(), k_signature_magic.size());
  return tail && *tail == k_signature_magic;
}

Checked<ModInfo> modinfo_of_elf(Files& files, const std::string& path) {
  const auto sections = read_sections(files, path);
  if (sections.empty()) return problem("not an ELF file with section headers");
  for (const auto& section : sections) {
    if (section.name != ".modinfo") continue;
    if (section.size > k_max_modinfo) return problem("its .modinfo section is larger than " + std::to_string(k_max_modinfo) + " bytes");
    auto bytes = files.read_range(path, section.offset, static_cast<std::size_t>(section.size));
    if (!bytes) return problem("its .modinfo section could not be read: " + bytes.error().message());
    ModInfo info = parse_modinfo(*bytes);
    info.signature_appended = signature_appended(files, path);
    return info;
  }
  return problem("an ELF file without a .modinfo section: not a kernel module");
}

Result<std::string> decompress(const std::string& compression, std::string_view bytes, std::size_t cap) {
  if (compression == "xz") return xz_decompress(bytes, cap);
  if (compression == "zstd") return zstd_decompress(bytes, cap);
  return gzip_decompress(bytes, cap);
}

Problem unpack_problem(const std::string& compression, std::error_code error, std::size_t cap) {
  return problem(error == std::errc::file_too_large
                     ? compression + " data that unpacks to more than " + std::to_string(cap >> 20) +
                           " MiB, or asks for a larger window or dictionary than a module needs"
                     : "not " + compression + " data, or damaged or cut short");
}

Checked<std::string> read_compressed(Files& files, const std::string& path) {
  auto bytes = files.read_file(path, k_max_compressed + 1);
  if (!bytes) return problem("could not be read: " + bytes.error().message());
  if (bytes->size() > k_max_compressed)
    return problem("larger than " + std::to_string(k_max_compressed >> 20) + " MiB compressed: not read");
  return std::move(*bytes);
}

}  // namespace

ModInfo parse_modinfo(std::string_view bytes) {
  ModInfo info;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const auto end = std::min(bytes.find('\0', at), bytes.size());
    const auto entry = bytes.substr(at, end - at);
    at = end + 1;
    const auto equals = entry.find('=');
    if (equals == std::string_view::npos) continue;
    const auto key = entry.substr(0, equals);
    const std::string value(entry.substr(equals + 1, k_max_value));
    if (key == "version") info.version = value;
    else if (key == "license") info.license = value;
    else if (key == "vermagic") info.vermagic = value;
    else if (key == "srcversion") info.srcversion = value;
    else if (key == "firmware" && info.firmware.size() < 32) info.firmware.push_back(value);
  }
  return info;
}

std::optional<std::string> module_compression(std::string_view path) {
  if (path.ends_with(".ko.xz")) return "xz";
  if (path.ends_with(".ko.zst")) return "zstd";
  if (path.ends_with(".ko.gz")) return "gzip";
  return std::nullopt;
}

Checked<ModInfo> modinfo_of_bytes(std::string bytes, std::optional<std::string> compression) {
  if (compression) {
    auto unpacked = decompress(*compression, bytes, k_max_unpacked_module);
    if (!unpacked) return unpack_problem(*compression, unpacked.error(), k_max_unpacked_module);
    bytes = std::move(*unpacked);
  }
  UnpackedModule module(std::move(bytes));
  return modinfo_of_elf(module, "module");
}

std::optional<int> module_xz_check(Files& files, const std::string& path) {
  const auto header = files.read_range(path, 0, k_xz_stream_header_size);
  return header ? xz_stream_check(*header) : std::nullopt;
}

Checked<ModInfo> read_modinfo(Files& files, const std::string& path) {
  UnpackBudget budget;
  return *read_modinfo(files, path, budget);
}

std::optional<Checked<ModInfo>> read_modinfo(Files& files, const std::string& path, UnpackBudget& budget) {
  const auto compression = module_compression(path);
  if (!compression) return modinfo_of_elf(files, path);
  if (budget.bytes == 0) return std::nullopt;
  auto bytes = read_compressed(files, path);
  if (!bytes) return Checked<ModInfo>(bytes.problem());
  // What is left of the budget bounds this one; refused for want of budget
  // alone, it is not read rather than damaged.
  const std::size_t cap = std::min(k_max_unpacked_module, budget.bytes);
  auto unpacked = decompress(*compression, *bytes, cap);
  if (!unpacked && unpacked.error() == std::errc::file_too_large && cap < k_max_unpacked_module) {
    budget.bytes = 0;
    return std::nullopt;
  }
  if (!unpacked) return Checked<ModInfo>(unpack_problem(*compression, unpacked.error(), cap));
  budget.bytes -= unpacked->size();
  UnpackedModule module(std::move(*unpacked));
  return modinfo_of_elf(module, "module");
}

}  // namespace gd
