// libFuzzer target: any bytes as a snapshot .tar.gz (or a bare tar), then
// every stored path resolved and read in memory, and the bytes redacted.
// A bad archive is a problem string; nothing crashes, hangs or grows past its caps.
#include "archive/gzip.h"
#include "archive/tar_archive.h"
#include "snapshot/stored_files.h"
#include "redact/redactor.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // Decompressed and read piece by piece, as a replay reads it; a bare tar is fed in pieces of 1 to 256 bytes.
  gd::TarReader reader(16 << 20);
  gd::Checked<> fed;
  const auto inflated = gd::gzip_decompress_each(bytes, 16 << 20, [&](std::string_view piece) {
    fed = reader.feed(piece);
    return static_cast<bool>(fed);
  });
  if (!inflated) {
    reader = gd::TarReader(bytes.size());
    fed = {};
    const std::size_t piece = size ? 1 + data[0] : 1;
    for (std::size_t at = 0; fed && at < bytes.size(); at += piece) fed = reader.feed(bytes.substr(at, piece));
  }
  if (!fed) return 0;
  const auto contents = reader.finish();
  if (!contents) return 0;
  gd::MemoryFiles files;
  for (const auto& entry : *contents) {
    const std::string path = "/" + entry.path;
    if (entry.type == gd::TarEntry::Type::file) files.add_file(path, entry.content, entry.mode);
    if (entry.type == gd::TarEntry::Type::directory) files.add_directory(path);
    if (entry.type == gd::TarEntry::Type::symlink) files.add_link(path, entry.target);
  }
  gd::Redactor redactor;
  redactor.add_user("alice");
  redactor.add_host_name("gpu-node-17");
  for (const auto& entry : *contents) {
    const std::string path = "/" + entry.path;
    (void)files.read_file(path, 4096);
    (void)files.list_dir(path);
    (void)files.stat(path);
    (void)redactor.redact(entry.content, gd::TextOrigin::file, path);
  }
  (void)redactor.redact(bytes, gd::TextOrigin::command_output);
  return 0;
}
