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
  auto unpacked = gd::gzip_decompress(bytes, 16 << 20);
  const auto contents = gd::read_tar(unpacked ? std::string_view(*unpacked) : bytes);
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
