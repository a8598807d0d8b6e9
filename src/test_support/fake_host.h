#pragma once
// An in-memory Host for unit tests, in the spirit of ninja's
// VirtualFileSystem: files, symlinks, device nodes, environment and child
// answers are plain maps that a test fills in. Directories exist because a
// path below them does. A path named in throw_on_read makes any read of it
// throw, so a test can check that a probe's failure is contained.

#include "host/host.h"
#include "host/path_walk.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace gd {

// A child that exited with `exit`, having printed these.
inline ChildAnswer child_answer(std::string stdout_text, int exit = 0, std::string stderr_text = {}) {
  ChildAnswer answer;
  answer.exit = exit;
  answer.output = std::move(stdout_text);
  answer.error_output = std::move(stderr_text);
  return answer;
}

class FakeHost final : public Host {
 public:
  std::map<std::string, std::string, std::less<>> files;
  std::map<std::string, std::string, std::less<>> links;  // path -> target, as read_link returns it
  std::map<std::string, DeviceNode, std::less<>> devices;
  std::map<std::string, Records, std::less<>> records;  // what a record device (/dev/kmsg) gives
  std::map<std::string, std::string, std::less<>> environment;
  std::map<std::string, FileStat, std::less<>> file_stats;  // a file's mode and owner where not 0644 root's
  std::map<std::string, ChildAnswer, std::less<>> answers;  // ChildRequest::key() -> answer
  std::set<std::string, std::less<>> throw_on_read;
  std::vector<ChildRequest> asked;  // every request, in order, for tests that count them
  std::vector<ChildRequest> asked_ahead;  // what a check started ahead (answered later through ask)
  // ChildRequest::key() -> the answers a session gives, in order (then ECHILD);
  // every session opened with that key follows the one script.
  std::map<std::string, std::vector<ChildAnswer>, std::less<>> sessions;
  int sessions_opened = 0;
  std::map<std::string, int, std::less<>> reads;  // read_file calls per path asked, for tests that count them
  Uname kernel{"Linux", "6.1.0-test", "#1 SMP", "x86_64"};
  UserIds ids{1000, 1000, {1000}};
  HostMode host_mode = HostMode::replay;

  // Adds a file (and so its parent directories).
  FakeHost& file(const std::string& path, std::string content) {
    files[path] = std::move(content);
    return *this;
  }
  FakeHost& dir(const std::string& path) {
    directories.insert(path);
    return *this;
  }
  FakeHost& link(const std::string& path, std::string target) {
    links[path] = std::move(target);
    return *this;
  }
  FakeHost& env_var(const std::string& name, std::string value) {
    environment[name] = std::move(value);
    return *this;
  }

  HostMode mode() const override { return host_mode; }
  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) override;
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override;
  Result<std::vector<std::string>> list_dir(std::string_view path) override;
  Result<std::string> read_link(std::string_view path) override;
  Result<FileStat> stat(std::string_view path) override;
  Result<DeviceNode> device(std::string_view path) override;
  Result<Records> read_records(std::string_view path, std::size_t max_bytes) override;
  std::optional<std::string> env(std::string_view name) override;
  std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) override;
  Uname uname() override { return kernel; }
  UserIds user() override { return ids; }
  ChildAnswer ask(const ChildRequest& request) override;
  void ask_ahead(const ChildRequest& request) override { asked_ahead.push_back(request); }
  std::unique_ptr<ChildSession> open_session(const ChildRequest& request) override;

 private:
  Result<std::string> resolve(std::string_view path, FollowFinal follow) const;
  bool is_directory(const std::string& path) const;
  void check_throw(std::string_view path) const;
  std::set<std::string, std::less<>> directories;
  std::size_t m_session_step = 0;  // the next answer of the one script
};

}  // namespace gd
