#include "test_support/fake_host.h"

#include <cerrno>
#include <vector>

namespace gd {
namespace {

std::string parent_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == 0 || slash == std::string_view::npos ? "/" : std::string(path.substr(0, slash));
}

// dir + "/" + name, without doubling the slash of "/".
std::string joined(const std::string& dir, std::string_view name) {
  return (dir == "/" ? std::string() : dir) + "/" + std::string(name);
}

std::string_view base_name(std::string_view path) { return path.substr(path.rfind('/') + 1); }

// "/dir/../real/./x" -> "/real/x", lexically (link targets are joined first).
std::string normalized(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t at = 0;
  while (at <= path.size()) {
    const auto end = std::min(path.find('/', at), path.size());
    const auto part = path.substr(at, end - at);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    at = end + 1;
  }
  std::string out;
  for (auto part : parts) out += "/" + std::string(part);
  return out.empty() ? "/" : out;
}

}  // namespace

void FakeHost::check_throw(std::string_view path) const {
  if (throw_on_read.count(path)) throw std::runtime_error("injected failure reading " + std::string(path));
}

// Follows links component by component, as the kernel does; relative
// targets are taken from the link's directory. Bounded against loops.
std::string FakeHost::resolve(std::string_view path) const {
  std::string current(path);
  for (int hops = 0; hops < 40; ++hops) {
    bool changed = false;
    for (std::size_t end = 1; end <= current.size(); ++end) {
      if (end != current.size() && current[end] != '/') continue;
      const std::string prefix = current.substr(0, end);
      const auto link = links.find(prefix);
      if (link == links.end()) continue;
      std::string target = link->second.starts_with("/") ? link->second : joined(parent_of(prefix), link->second);
      current = normalized(target + current.substr(end));
      changed = true;
      break;
    }
    if (!changed) break;
  }
  return current;
}

Result<std::string> FakeHost::read_file(std::string_view path, std::size_t max_bytes) {
  check_throw(path);
  const auto found = files.find(resolve(path));
  if (found == files.end()) return errno_code(ENOENT);
  return found->second.substr(0, max_bytes);
}

Result<std::string> FakeHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  check_throw(path);
  const auto found = files.find(resolve(path));
  if (found == files.end()) return errno_code(ENOENT);
  if (offset >= found->second.size()) return std::string();
  return found->second.substr(static_cast<std::size_t>(offset), size);
}

Result<std::vector<std::string>> FakeHost::list_dir(std::string_view path) {
  check_throw(path);
  const std::string dir = resolve(path);
  const std::string prefix = dir == "/" ? "/" : dir + "/";
  std::set<std::string> names;
  auto add = [&](const std::string& child) {
    if (!child.starts_with(prefix) || child.size() == prefix.size()) return;
    const std::string rest = child.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  };
  for (const auto& [name, content] : files) add(name);
  for (const auto& [name, target] : links) add(name);
  for (const auto& [name, node] : devices) add(name);
  for (const auto& name : directories) add(name);
  if (names.empty() && !directories.count(dir)) return errno_code(ENOENT);
  return std::vector<std::string>(names.begin(), names.end());
}

Result<std::string> FakeHost::read_link(std::string_view path) {
  check_throw(path);
  // The final component is the link itself, not followed.
  const auto found = links.find(joined(resolve(parent_of(path)), base_name(path)));
  if (found == links.end()) return errno_code(EINVAL);
  return found->second;
}

Result<FileStat> FakeHost::stat(std::string_view path) {
  check_throw(path);
  const std::string resolved = resolve(path);
  if (const auto file = files.find(resolved); file != files.end())
    return FileStat{FileType::regular, 0644, 0, 0, file->second.size()};
  if (const auto node = devices.find(resolved); node != devices.end())
    return FileStat{node->second.type, node->second.mode, 0, 0, 0};
  if (list_dir(resolved)) return FileStat{FileType::directory, 0755, 0, 0, 0};
  return errno_code(ENOENT);
}

Result<DeviceNode> FakeHost::device(std::string_view path) {
  check_throw(path);
  const auto found = devices.find(resolve(path));
  if (found == devices.end()) return errno_code(ENOENT);
  return found->second;
}

std::optional<std::string> FakeHost::env(std::string_view name) {
  check_throw(name);
  const auto found = environment.find(name);
  if (found == environment.end()) return std::nullopt;
  return found->second;
}

std::vector<std::pair<std::string, std::string>> FakeHost::env_with_prefix(std::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& [name, value] : environment)
    if (name.starts_with(prefix)) found.emplace_back(name, value);
  return found;
}

ChildAnswer FakeHost::ask(const ChildRequest& request) {
  asked.push_back(request);
  const auto found = answers.find(request.key());
  if (found != answers.end()) return found->second;
  ChildAnswer missing;
  missing.error = "not-recorded";
  return missing;
}

}  // namespace gd
