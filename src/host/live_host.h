#pragma once
// The real system, optionally seen through --root DIR (an unpacked image):
// under a root, paths resolve inside DIR and device nodes are only stat-ed,
// never opened, since they are the image's files, not this machine's devices.
// The environment, kernel and user are always this process's own.

#include "host/children_ahead.h"
#include "host/host.h"
#include "host/root_dir.h"

#include <optional>

namespace gd {

class LiveHost final : public Host {
 public:
  explicit LiveHost(std::string root_dir = "/");
  LiveHost(const LiveHost&) = delete;
  LiveHost& operator=(const LiveHost&) = delete;

  HostMode mode() const override { return m_root == "/" ? HostMode::live : HostMode::root; }
  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) override;
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override;
  Result<std::vector<std::string>> list_dir(std::string_view path) override;
  Result<std::string> read_link(std::string_view path) override;
  Result<FileStat> stat(std::string_view path) override;
  Result<DeviceNode> device(std::string_view path) override;
  Result<Records> read_records(std::string_view path, std::size_t max_bytes) override;
  std::optional<std::string> env(std::string_view name) override;
  std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) override;
  Uname uname() override;
  UserIds user() override;
  ChildAnswer ask(const ChildRequest& request) override;
  void ask_ahead(const ChildRequest& request) override;
  std::unique_ptr<ChildSession> open_session(const ChildRequest& request) override;

 private:
  std::vector<std::string> argv_of(const ChildRequest& request) const;
  std::string m_root;
  std::optional<RootDir> m_root_dir;  // under --root: every path resolves inside it
  std::error_code m_root_error;       // why the root could not be opened
  // The ELF reader reads one file in many pieces: keep it open between them.
  std::string m_open_path;
  UniqueFd m_open_fd;
  ChildrenAhead m_ahead;  // last: destroyed first, so its children end while the rest is still there
};

}  // namespace gd
