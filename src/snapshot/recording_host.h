#pragma once
// Wraps another Host and writes everything the checks read into a snapshot
// directory, as `gpudoctor snapshot` does. Only what was read is kept: the
// environment holds just the variables the checks asked for, and a file
// holds just the bytes that were read from it.

#include "host/forwarding_host.h"
#include "host/path_walk.h"
#include "snapshot/snapshot.h"
#include "snapshot/write_root.h"

#include <map>
#include <memory>
#include <optional>

namespace gd {

class RecordingHost final : public ForwardingHost {
 public:
  // out_dir must not exist yet, or be empty; nothing is written outside it.
  RecordingHost(Host& wrapped, std::string out_dir);

  // Writes snapshot.json; call once, after the checks ran.
  Result<void> finish(const std::string& gpudoctor_version);
  std::size_t files_written() const { return m_files_written; }
  // Files read but not kept: past what a snapshot may hold and still replay.
  std::size_t files_not_kept() const { return m_files_not_kept; }
  // Variables read but not kept, so that snapshot.json stays under its cap.
  std::size_t variables_not_kept() const { return m_variables_not_kept; }

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

 private:
  // The checked path with every symlink resolved as the system resolves it,
  // mirroring those symlinks and creating the parent directories below
  // out_dir/root; nothing when it cannot be stored safely.
  std::optional<std::string> prepare(std::string_view path, FollowFinal follow_final = FollowFinal::yes);
  void record_error(std::string_view path, const std::error_code& error);
  void pack_pieces();
  // Counts bytes against the snapshot's budget; false (and the path recorded
  // as too large) where they would pass it.
  bool keep(std::string_view path, std::size_t bytes);
  void make_room_for(std::size_t json_bytes);
  std::size_t drop_variables_past(std::size_t json_bytes, std::size_t limit);
  void record_too_large(const std::string& path);
  struct Kept {
    std::string logical;  // where it lies below root/
    std::size_t bytes;
  };
  std::map<std::string, Kept, std::less<>> m_kept;  // by the path as read

  std::string m_out;
  std::optional<WriteRoot> m_root;  // out_dir/root, opened once
  std::size_t m_files_written = 0, m_files_not_kept = 0, m_kept_bytes = 0, m_variables_not_kept = 0;
  Snapshot m_snapshot;
  // Piecewise reads, kept until finish() packs them: path -> offset -> bytes.
  std::map<std::string, std::map<std::uint64_t, std::string>, std::less<>> m_read_pieces;
};

}  // namespace gd
