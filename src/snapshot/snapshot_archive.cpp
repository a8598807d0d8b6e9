#include "snapshot/snapshot_archive.h"

#include "archive/gzip.h"
#include "archive/tar_archive.h"
#include "host/local_fs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace gd {

namespace fs = std::filesystem;

namespace {

// "/tmp/node-a.tar.gz" -> "node-a"
std::string folder_name(const std::string& archive_path) {
  std::string name = fs::path(archive_path).filename().string();
  for (const char* suffix : {".tar.gz", ".tgz"})
    if (name.ends_with(suffix)) name.erase(name.size() - std::string_view(suffix).size());
  return name.empty() || name == "." || name == ".." ? "gpudoctor-snapshot" : name;
}

// Every entry below dir, parents before children, symlinks kept as links.
std::vector<TarEntry> entries_below(const std::string& dir, const std::string& folder) {
  std::vector<TarEntry> entries{{folder, TarEntry::Type::directory, "", "", 0755}};
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    TarEntry entry;
    entry.path = folder + "/" + path.lexically_relative(dir).string();  // never fs::relative: it follows symlinks
    const auto status = fs::symlink_status(path);
    if (fs::is_symlink(status)) {
      entry.type = TarEntry::Type::symlink;
      entry.target = fs::read_symlink(path).string();
    } else if (fs::is_directory(status)) {
      entry.type = TarEntry::Type::directory;
      entry.mode = 0755;
    } else if (fs::is_regular_file(status)) {
      auto content = read_local_file(path.string(), k_max_unpacked_bytes);
      if (!content) throw std::runtime_error("cannot read " + path.string() + ": " + content.error().message());
      entry.content = std::move(*content);
      entry.mode = static_cast<std::uint32_t>(status.permissions()) & 0777;
    } else {
      continue;
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

// The folder in the archive that holds snapshot.json: the archive's top, or
// its one top-level folder.
Checked<std::string> snapshot_folder(const std::vector<TarEntry>& entries) {
  for (const auto& entry : entries)
    if (entry.type == TarEntry::Type::file && entry.path == "snapshot.json") return std::string();
  for (const auto& entry : entries)
    if (entry.type == TarEntry::Type::file && entry.path.ends_with("/snapshot.json") &&
        entry.path.find('/') == entry.path.size() - std::string_view("/snapshot.json").size())
      return entry.path.substr(0, entry.path.find('/') + 1);
  return problem("no snapshot.json at the top of the archive or in a folder there");
}

}  // namespace

bool is_archive_name(std::string_view path) { return path.ends_with(".tar.gz") || path.ends_with(".tgz"); }

Checked<> pack_snapshot(const std::string& dir, const std::string& archive_path) {
  const std::string packed = gzip_compress(write_tar(entries_below(dir, folder_name(archive_path)), std::time(nullptr)));
  // Private, as the directory form is: a snapshot holds the machine's files (all of them with --no-redact).
  // Never over what appeared at that place since the run began (a file, a symlink, dangling or not).
  if (auto written = write_new_file_atomically(archive_path, packed, 0600); !written)
    return problem(written.error().value() == EEXIST ? archive_path + " appeared while the snapshot was taken; gpudoctor does not overwrite it"
                                                     : "cannot write " + archive_path + ": " + written.error().message());
  return {};
}

UnpackedSnapshot unpack_snapshot(const std::string& archive_path) {
  auto compressed = read_local_file(archive_path, k_max_archive_bytes + 1);
  if (!compressed) throw SnapshotError(archive_path + ": " + compressed.error().message());
  if (compressed->size() > k_max_archive_bytes)
    throw SnapshotError(archive_path + ": larger than the " + std::to_string(k_max_archive_bytes >> 20) + " MB a snapshot archive may be");
  // Decompressed and read in one pass: only the entries are held, never the archive beside them.
  TarReader reader(k_max_unpacked_bytes);
  Checked<> fed;
  const auto inflated = gzip_decompress_each(*compressed, k_max_unpacked_bytes, [&](std::string_view piece) {
    fed = reader.feed(piece);
    return static_cast<bool>(fed);
  });
  if (!fed) throw SnapshotError(archive_path + ": " + fed.error());
  if (!inflated && inflated.error().value() == EFBIG)
    throw SnapshotError(archive_path + ": unpacks to more than " + std::to_string(k_max_unpacked_bytes >> 20) + " MB, which no snapshot does");
  if (!inflated) throw SnapshotError(archive_path + ": not gzip-compressed, or cut short");
  auto contents = reader.finish();
  if (!contents) throw SnapshotError(archive_path + ": " + contents.error());
  const auto found = snapshot_folder(*contents);
  if (!found) throw SnapshotError(archive_path + ": " + found.error());
  const std::string& folder = *found;
  UnpackedSnapshot unpacked;
  unpacked.files = std::make_unique<MemoryFiles>();
  const std::string root = folder + "root/";
  bool has_snapshot = false;
  for (auto& entry : *contents) {
    if (entry.path == folder + "snapshot.json" && entry.type == TarEntry::Type::file) {
      unpacked.snapshot = parse_snapshot(entry.content, archive_path + ": snapshot.json");
      has_snapshot = true;
      continue;
    }
    if (!entry.path.starts_with(root)) continue;
    const std::string path = "/" + entry.path.substr(root.size());
    switch (entry.type) {
      case TarEntry::Type::file: unpacked.files->add_file(path, std::move(entry.content), entry.mode); break;
      case TarEntry::Type::directory: unpacked.files->add_directory(path); break;
      case TarEntry::Type::symlink: unpacked.files->add_link(path, std::move(entry.target)); break;
    }
  }
  if (!has_snapshot) throw SnapshotError(archive_path + ": snapshot.json is not a regular file");
  return unpacked;
}

}  // namespace gd
