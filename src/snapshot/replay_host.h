#pragma once
// A snapshot (docs/snapshot-format.md) played back as a Host: files come
// from DIR/root, everything else from DIR/snapshot.json; or both from a
// .tar.gz of such a directory, read into memory.

#include "host/host.h"
#include "snapshot/snapshot.h"
#include "snapshot/stored_files.h"

#include <boost/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

namespace gd {

class ReplayHost final : public Host {
 public:
  // A snapshot directory or a .tar.gz of one; throws SnapshotError when it
  // is not a readable gpudoctor snapshot.
  explicit ReplayHost(const std::string& snapshot);

  HostMode mode() const override { return HostMode::replay; }
  std::optional<std::vector<std::string>> redactions() const override { return m_snapshot.redactions; }
  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) override;
  Result<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t size) override;
  Result<std::vector<std::string>> list_dir(std::string_view path) override;
  Result<std::string> read_link(std::string_view path) override;
  Result<FileStat> stat(std::string_view path) override;
  Result<DeviceNode> device(std::string_view path) override;
  Result<Records> read_records(std::string_view path, std::size_t max_bytes) override;
  std::optional<std::string> env(std::string_view name) override;
  std::vector<std::pair<std::string, std::string>> env_with_prefix(std::string_view prefix) override;
  Uname uname() override { return m_snapshot.uname.value_or(Uname{}); }
  UserIds user() override { return m_snapshot.user.value_or(UserIds{}); }
  ChildAnswer ask(const ChildRequest& request) override;

 private:
  std::optional<std::error_code> recorded_error(std::string_view path) const;
  Result<std::string> read_pieces(std::string_view path, std::uint64_t offset, std::size_t size);
  ChildAnswer legacy_device_open(const ChildRequest& request) const;

  void open_directory(const std::string& dir);

  std::unique_ptr<StoredFiles> m_files;  // root/; absent when the snapshot has none
  std::error_code m_root_error;
  Snapshot m_snapshot;
  std::map<std::string, ChildAnswer, std::less<>> m_children;  // by ChildRequest::key()
};

}  // namespace gd
