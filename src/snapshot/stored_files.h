#pragma once
// The files of a snapshot being replayed, wherever they are kept: its root/
// directory on disk (read through RootDir, so nothing leads out of it), or
// a .tar.gz read into memory (nothing is unpacked to disk). Paths are the
// recorded system's absolute paths; symlinks resolve inside, as walk_path does.

#include "host/host.h"
#include "host/root_dir.h"

#include <map>
#include <memory>
#include <vector>
#include <string>

namespace gd {

class StoredFiles {
 public:
  virtual ~StoredFiles() = default;
  virtual Result<std::string> read_file(std::string_view path, std::size_t max_bytes) const = 0;
  virtual Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) const = 0;
  virtual Result<std::vector<std::string>> list_dir(std::string_view path) const = 0;
  virtual Result<std::string> read_link(std::string_view path) const = 0;
  virtual Result<FileStat> stat(std::string_view path) const = 0;
};

std::unique_ptr<StoredFiles> files_in_directory(RootDir root);

// Files held in memory, as an archive brought them.
class MemoryFiles final : public StoredFiles {
 public:
  // Each takes an absolute path; missing parent directories are implied.
  void add_file(std::string_view path, std::string content, std::uint32_t mode);
  void add_directory(std::string_view path);
  void add_link(std::string_view path, std::string target);

  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) const override;
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) const override;
  Result<std::vector<std::string>> list_dir(std::string_view path) const override;
  Result<std::string> read_link(std::string_view path) const override;
  Result<FileStat> stat(std::string_view path) const override;

 private:
  // A tree, as a file system keeps one: a step of a walk looks up one name
  // among its directory's entries, never a whole path (a hostile archive
  // links into a tree thousands of directories deep).
  struct Node {
    FileType type = FileType::directory;
    std::string content;  // a file's bytes or a symlink's target
    std::uint32_t mode = 0755;
    std::map<std::string, std::size_t, std::less<>> entries;  // a directory's, by name
  };
  // The index of the node a path names.
  Result<std::size_t> find(std::string_view path, FollowFinal follow) const;
  void add(std::string_view path, Node node);

  std::vector<Node> m_nodes{Node{}};  // [0] is "/"
};

}  // namespace gd
