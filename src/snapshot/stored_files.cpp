#include "snapshot/stored_files.h"

#include "host/local_fs.h"
#include "host/path_walk.h"
#include "util/path.h"

#include <unistd.h>

#include <cerrno>

namespace gd {

namespace {

class DirectoryFiles final : public StoredFiles {
 public:
  explicit DirectoryFiles(RootDir root) : m_root(std::move(root)) {}
  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) const override {
    return m_root.read_file(path, max_bytes);
  }
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) const override {
    auto fd = m_root.open_regular(path);
    if (!fd) return fd.error();
    return pread_all(fd->get(), offset, size);
  }
  Result<std::vector<std::string>> list_dir(std::string_view path) const override { return m_root.list_dir(path); }
  Result<std::string> read_link(std::string_view path) const override { return m_root.read_link(path); }
  Result<FileStat> stat(std::string_view path) const override { return m_root.stat(path); }

 private:
  RootDir m_root;
};

}  // namespace

std::unique_ptr<StoredFiles> files_in_directory(RootDir root) { return std::make_unique<DirectoryFiles>(std::move(root)); }

void MemoryFiles::add(std::string_view path, Node node) {
  auto walked = walk_path(path, FollowFinal::no, [](const std::string&, bool) -> Result<std::optional<std::string>> {
    return std::optional<std::string>();
  });
  if (!walked || *walked == "/") return;
  const std::string clean = *walked;
  // Parents first, so every node's directory exists.
  for (std::size_t slash = clean.find('/', 1); slash != std::string::npos; slash = clean.find('/', slash + 1)) {
    const std::string parent = clean.substr(0, slash);
    if (m_nodes.emplace(parent, Node{}).second) m_children[dir_name(parent)].insert(std::string(base_name(parent)));
  }
  m_children[dir_name(clean)].insert(std::string(base_name(clean)));
  m_nodes.insert_or_assign(clean, std::move(node));
}

void MemoryFiles::add_file(std::string_view path, std::string content, std::uint32_t mode) {
  add(path, Node{FileType::regular, std::move(content), mode});
}
void MemoryFiles::add_directory(std::string_view path) { add(path, Node{}); }
void MemoryFiles::add_link(std::string_view path, std::string target) {
  add(path, Node{FileType::symlink, std::move(target), 0777});
}

Result<std::string> MemoryFiles::resolve(std::string_view path, FollowFinal follow) const {
  return walk_path(path, follow, [&](const std::string& logical, bool is_final) -> Result<std::optional<std::string>> {
    const auto found = m_nodes.find(logical);
    if (found == m_nodes.end()) return errno_code(ENOENT);
    if (found->second.type == FileType::symlink) return std::optional<std::string>(found->second.content);
    if (!is_final && found->second.type != FileType::directory) return errno_code(ENOTDIR);
    return std::optional<std::string>();
  });
}

Result<const MemoryFiles::Node*> MemoryFiles::find(std::string_view path, FollowFinal follow) const {
  auto resolved = resolve(path, follow);
  if (!resolved) return resolved.error();
  const auto found = m_nodes.find(*resolved);
  if (found == m_nodes.end()) return errno_code(ENOENT);
  return &found->second;
}

Result<std::string> MemoryFiles::read_file(std::string_view path, std::size_t max_bytes) const {
  return read_range(path, 0, max_bytes);
}

Result<std::string> MemoryFiles::read_range(std::string_view path, std::uint64_t offset, std::size_t size) const {
  auto node = find(path, FollowFinal::yes);
  if (!node) return node.error();
  if ((*node)->type == FileType::directory) return errno_code(EISDIR);
  const auto& content = (*node)->content;
  if (offset >= content.size()) return std::string();
  return content.substr(static_cast<std::size_t>(offset), size);
}

Result<std::vector<std::string>> MemoryFiles::list_dir(std::string_view path) const {
  auto resolved = resolve(path, FollowFinal::yes);
  if (!resolved) return resolved.error();
  if (m_nodes.find(*resolved)->second.type != FileType::directory) return errno_code(ENOTDIR);
  const auto children = m_children.find(*resolved);
  if (children == m_children.end()) return std::vector<std::string>();
  return std::vector<std::string>(children->second.begin(), children->second.end());
}

Result<std::string> MemoryFiles::read_link(std::string_view path) const {
  auto node = find(path, FollowFinal::no);
  if (!node) return node.error();
  if ((*node)->type != FileType::symlink) return errno_code(EINVAL);
  return (*node)->content;
}

Result<FileStat> MemoryFiles::stat(std::string_view path) const {
  auto node = find(path, FollowFinal::yes);
  if (!node) return node.error();
  const auto& found = **node;
  return FileStat{found.type, found.mode, 0, 0, found.type == FileType::regular ? found.content.size() : 0};
}

}  // namespace gd
