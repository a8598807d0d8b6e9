#pragma once
// A snapshot directory (docs/snapshot-format.md) played back as a Host:
// files come from DIR/root, everything else from DIR/snapshot.json.

#include "host/host.h"

#include <boost/json.hpp>

#include <map>
#include <set>
#include <stdexcept>

namespace gd {

struct SnapshotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ReplayHost final : public Host {
 public:
  // Throws SnapshotError when DIR is not a readable gpudoctor snapshot.
  explicit ReplayHost(const std::string& snapshot_dir);

  HostMode mode() const override { return HostMode::replay; }
  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) override;
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override;
  Result<std::vector<std::string>> list_dir(std::string_view path) override;
  Result<std::string> read_link(std::string_view path) override;
  Result<FileStat> stat(std::string_view path) override;
  Result<DeviceNode> device(std::string_view path) override;
  std::optional<std::string> env(std::string_view name) override;
  std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) override;
  Uname uname() override { return m_uname; }
  UserIds user() override { return m_user; }
  ChildAnswer ask(const ChildRequest& request) override;

 private:
  Result<std::string> local_path(std::string_view path, bool follow_final) const;
  std::optional<std::error_code> recorded_error(std::string_view path) const;

  std::string m_root;
  std::map<std::string, std::string, std::less<>> m_env;
  std::map<std::string, DeviceNode, std::less<>> m_devices;
  std::map<std::string, std::string, std::less<>> m_errors;
  std::set<std::string, std::less<>> m_directories;
  std::map<std::string, std::uint64_t, std::less<>> m_file_sizes;  // of files cut down to what was read
  // path -> (original offset, size) of each piece, stored back to back
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>, std::less<>> m_pieces;
  Result<std::string> read_pieces(std::string_view path, std::uint64_t offset, std::size_t size);  // captured as existing, maybe empty
  std::map<std::string, ChildAnswer, std::less<>> m_children;  // by ChildRequest::key()
  ChildAnswer legacy_device_open(const ChildRequest& request) const;
  Uname m_uname;
  UserIds m_user;
};

}  // namespace gd
