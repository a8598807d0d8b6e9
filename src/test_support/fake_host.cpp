#include "test_support/fake_host.h"

#include "host/path_walk.h"
#include "util/text.h"

#include <cerrno>
#include <vector>

namespace gd {
void FakeHost::check_throw(std::string_view path) const {
  if (throw_on_read.count(path)) throw std::runtime_error("injected failure reading " + std::string(path));
}

// A directory named, or implied by anything beneath it.
bool FakeHost::is_directory(const std::string& path) const {
  if (path == "/" || directories.count(path)) return true;
  const std::string prefix = path + "/";
  auto starts_there = [&](const std::string& key) { return key.starts_with(prefix); };
  auto has_child = [&](const auto& map) {
    const auto next = map.lower_bound(prefix);
    return next != map.end() && starts_there(next->first);
  };
  const auto directory = directories.lower_bound(prefix);
  return has_child(files) || has_child(links) || has_child(devices) ||
         (directory != directories.end() && starts_there(*directory));
}

// The walk the replay and every other host without a kernel use, over these
// maps: what a test builds resolves as --root and a replay would resolve it.
Result<std::string> FakeHost::resolve(std::string_view path, FollowFinal follow) const {
  return walk_path(path, follow, [&](const WalkStep& step) -> Result<std::optional<std::string>> {
    const std::string& logical = step.logical;
    if (const auto link = links.find(logical); link != links.end()) return std::optional<std::string>(link->second);
    if (step.is_final) return std::optional<std::string>();  // the caller looks it up
    if (files.count(logical) || devices.count(logical)) return errno_code(ENOTDIR);
    if (!is_directory(logical)) return errno_code(ENOENT);
    return std::optional<std::string>();
  });
}

Result<std::string> FakeHost::read_file(std::string_view path, std::size_t max_bytes) {
  ++reads[std::string(path)];
  check_throw(path);
  const auto resolved = resolve(path, FollowFinal::yes);
  if (!resolved) return resolved.error();
  const auto found = files.find(*resolved);
  if (found == files.end()) return errno_code(ENOENT);
  return found->second.substr(0, max_bytes);
}

Result<std::string> FakeHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  check_throw(path);
  const auto resolved = resolve(path, FollowFinal::yes);
  if (!resolved) return resolved.error();
  const auto found = files.find(*resolved);
  if (found == files.end()) return errno_code(ENOENT);
  if (offset >= found->second.size()) return std::string();
  return found->second.substr(static_cast<std::size_t>(offset), size);
}

Result<std::vector<std::string>> FakeHost::list_dir(std::string_view path) {
  check_throw(path);
  const auto resolved = resolve(path, FollowFinal::yes);
  if (!resolved) return resolved.error();
  const std::string& dir = *resolved;
  if (!is_directory(dir)) return errno_code(ENOENT);
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
  return std::vector<std::string>(names.begin(), names.end());
}

Result<std::string> FakeHost::read_link(std::string_view path) {
  check_throw(path);
  // The final component is the link itself, not followed.
  const auto resolved = resolve(path, FollowFinal::no);
  if (!resolved) return resolved.error();
  const auto found = links.find(*resolved);
  if (found == links.end()) return errno_code(EINVAL);
  return found->second;
}

Result<FileStat> FakeHost::stat(std::string_view path) {
  check_throw(path);
  const auto followed = resolve(path, FollowFinal::yes);
  if (!followed) return followed.error();
  const std::string& resolved = *followed;
  if (const auto file = files.find(resolved); file != files.end()) {
    if (const auto stat = file_stats.find(resolved); stat != file_stats.end())
      return FileStat{FileType::regular, stat->second.mode, stat->second.uid, stat->second.gid, file->second.size()};
    return FileStat{FileType::regular, 0644, 0, 0, file->second.size()};
  }
  if (const auto node = devices.find(resolved); node != devices.end())
    return FileStat{node->second.type, node->second.mode, 0, 0, 0};
  if (is_directory(resolved)) return FileStat{FileType::directory, 0755, 0, 0, 0};
  return errno_code(ENOENT);
}

Result<DeviceNode> FakeHost::device(std::string_view path) {
  check_throw(path);
  const auto resolved = resolve(path, FollowFinal::yes);
  if (!resolved) return resolved.error();
  const auto found = devices.find(*resolved);
  if (found == devices.end()) return errno_code(ENOENT);
  return found->second;
}

Result<Records> FakeHost::read_records(std::string_view path, std::size_t max_bytes) {
  check_throw(path);
  const auto found = records.find(path);
  if (found == records.end()) return errno_code(ENOENT);
  Records kept = found->second;
  keep_newest_records(kept.text, max_bytes);
  return kept;
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

namespace {

// Answers from a script the FakeHost keeps, so that a test can write the
// answers of several sessions one after another.
class ScriptedSession final : public ChildSession {
 public:
  ScriptedSession(const std::vector<ChildAnswer>& script, std::size_t& step) : m_script(script), m_step(step) {}
  ChildAnswer next(std::chrono::milliseconds) override {
    if (m_step < m_script.size()) return m_script[m_step++];
    ChildAnswer gone;
    gone.error = "ECHILD";
    return gone;
  }

 private:
  const std::vector<ChildAnswer>& m_script;
  std::size_t& m_step;
};

}  // namespace

std::unique_ptr<ChildSession> FakeHost::open_session(const ChildRequest& request) {
  const auto found = sessions.find(request.key());
  if (found == sessions.end()) return nullptr;
  ++sessions_opened;
  return std::make_unique<ScriptedSession>(found->second, m_session_step);
}

}  // namespace gd
