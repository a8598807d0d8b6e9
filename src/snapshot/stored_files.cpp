#include "snapshot/stored_files.h"

#include "host/local_fs.h"
#include "host/path_walk.h"
#include "util/path.h"

#include <unistd.h>

#include <algorithm>
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
  auto walked = walk_path(path, FollowFinal::no, [](const WalkStep&) -> Result<std::optional<std::string>> {
    return std::optional<std::string>();
  });
  if (!walked || *walked == "/") return;
  const auto parts = path_components(*walked);
  // Missing parents are directories.
  std::size_t at = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto found = m_nodes[at].entries.find(parts[i]);
    if (found != m_nodes[at].entries.end()) {
      if (i + 1 < parts.size()) {
        at = found->second;
        continue;
      }
      auto& existing = m_nodes[found->second];  // replaced, its entries kept
      existing.type = node.type;
      existing.content = std::move(node.content);
      existing.mode = node.mode;
      return;
    }
    const std::size_t index = m_nodes.size();
    m_nodes.push_back(i + 1 < parts.size() ? Node{} : std::move(node));
    m_nodes[at].entries.emplace(std::string(parts[i]), index);
    at = index;
  }
}

void MemoryFiles::add_file(std::string_view path, std::string content, std::uint32_t mode) {
  add(path, Node{FileType::regular, std::move(content), mode, {}});
}
void MemoryFiles::add_directory(std::string_view path) { add(path, Node{}); }
void MemoryFiles::add_link(std::string_view path, std::string target) {
  add(path, Node{FileType::symlink, std::move(target), 0777, {}});
}

Result<std::size_t> MemoryFiles::find(std::string_view path, FollowFinal follow) const {
  // chain[d]: the node of the resolved prefix of d components. walk_path
  // only ever asks about a name below a prefix it has resolved, so each step
  // is one lookup in one directory.
  std::vector<std::size_t> chain{0};
  auto walked = walk_path(path, follow, [&](const WalkStep& step) -> Result<std::optional<std::string>> {
    const auto& entries = m_nodes[chain[step.depth]].entries;
    const auto found = entries.find(step.name);
    if (found == entries.end()) return errno_code(ENOENT);
    const Node& node = m_nodes[found->second];
    if (node.type == FileType::symlink) return std::optional<std::string>(node.content);
    if (!step.is_final && node.type != FileType::directory) return errno_code(ENOTDIR);
    chain.resize(step.depth + 1);
    chain.push_back(found->second);
    return std::optional<std::string>();
  });
  if (!walked) return walked.error();
  if (*walked == "/") return std::size_t{0};
  const auto depth = static_cast<std::size_t>(std::count(walked->begin(), walked->end(), '/'));
  if (follow == FollowFinal::yes) return chain[depth];
  // Not followed, the final name was not looked up: a link there is the answer.
  const auto& entries = m_nodes[chain[depth - 1]].entries;
  const auto found = entries.find(base_name(*walked));
  if (found == entries.end()) return errno_code(ENOENT);
  return found->second;
}

Result<std::string> MemoryFiles::read_file(std::string_view path, std::size_t max_bytes) const {
  return read_range(path, 0, max_bytes);
}

Result<std::string> MemoryFiles::read_range(std::string_view path, std::uint64_t offset, std::size_t size) const {
  auto node = find(path, FollowFinal::yes);
  if (!node) return node.error();
  if (m_nodes[*node].type == FileType::directory) return errno_code(EISDIR);
  const auto& content = m_nodes[*node].content;
  if (offset >= content.size()) return std::string();
  return content.substr(static_cast<std::size_t>(offset), size);
}

Result<std::vector<std::string>> MemoryFiles::list_dir(std::string_view path) const {
  auto node = find(path, FollowFinal::yes);
  if (!node) return node.error();
  const auto& found = m_nodes[*node];
  if (found.type != FileType::directory) return errno_code(ENOTDIR);
  std::vector<std::string> names;
  names.reserve(found.entries.size());
  for (const auto& entry : found.entries) names.push_back(entry.first);
  return names;
}

Result<std::string> MemoryFiles::read_link(std::string_view path) const {
  auto node = find(path, FollowFinal::no);
  if (!node) return node.error();
  if (m_nodes[*node].type != FileType::symlink) return errno_code(EINVAL);
  return m_nodes[*node].content;
}

Result<FileStat> MemoryFiles::stat(std::string_view path) const {
  auto node = find(path, FollowFinal::yes);
  if (!node) return node.error();
  const auto& found = m_nodes[*node];
  return FileStat{found.type, found.mode, 0, 0, found.type == FileType::regular ? found.content.size() : 0};
}

}  // namespace gd
