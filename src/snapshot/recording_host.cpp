#include "snapshot/recording_host.h"

#include "snapshot/snapshot_archive.h"
#include "snapshot/snapshot_json.h"
#include "snapshot/write_root.h"
#include "util/text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>

namespace gd {

namespace {

// Only errors other than "not there" need recording: absence is the default.
bool worth_recording(const std::error_code& error) { return error.value() != ENOENT; }

// What a snapshot keeps must replay: its reader refuses an archive that
// unpacks to more than k_max_unpacked_bytes. Files and pieces are kept while
// they fit, leaving room for report.json and the tar headers; at the end the
// largest go until snapshot.json fits too. A file not kept is recorded as
// too large (EFBIG), as a reader's own cap says it: the replay reads it as
// unreadable.
constexpr std::size_t k_room_for_report = 8 << 20;
constexpr std::size_t k_max_kept_bytes = k_max_unpacked_bytes - k_room_for_report;

}  // namespace

RecordingHost::RecordingHost(Host& wrapped, std::string out_dir) : ForwardingHost(wrapped), m_out(std::move(out_dir)) {
  auto root = WriteRoot::open(m_out + "/root");
  if (root) m_root.emplace(std::move(*root));
}

std::optional<std::string> RecordingHost::prepare(std::string_view path, FollowFinal follow_final) {
  // Walked as the checked system sees it, asking the inner host about each
  // component: a symlink there becomes a symlink here (stored so that it
  // resolves inside the snapshot), so the snapshot resolves exactly as the
  // system did. Every write goes through m_root, never through a symlink.
  if (!m_root) return std::nullopt;
  auto walked = walk_path(path, follow_final, [&](const WalkStep& step) -> Result<std::optional<std::string>> {
    const std::string& logical = step.logical;
    if (auto target = inner().read_link(logical)) {
      if (m_root->make_link(logical, *target) && contained_link_target(logical, *target) != *target)
        m_snapshot.links.insert_or_assign(logical, *target);
      return std::optional<std::string>(*target);
    }
    if (!step.is_final) m_root->make_dirs(logical);
    return std::optional<std::string>();
  });
  if (!walked || *walked == "/") return std::nullopt;
  return *walked;
}

void RecordingHost::record_error(std::string_view path, const std::error_code& error) {
  if (worth_recording(error)) m_snapshot.errors.insert_or_assign(std::string(path), errno_name(error));
}

Result<std::string> RecordingHost::read_file(std::string_view path, std::size_t max_bytes) {
  auto content = inner().read_file(path, max_bytes);
  if (!content) {
    record_error(path, content.error());
    return content;
  }
  // Read again (to more bytes, say): only what it grew by is counted, and
  // where that does not fit, the copy kept first stays.
  if (const auto earlier = m_kept.find(path); earlier != m_kept.end()) {
    Kept& kept = earlier->second;
    if (content->size() <= kept.bytes || m_kept_bytes + (content->size() - kept.bytes) > k_max_kept_bytes) return content;
    if (m_root->write_file(kept.logical, *content)) {
      m_kept_bytes += content->size() - kept.bytes;
      kept.bytes = content->size();
    }
    return content;
  }
  if (!keep(path, content->size())) return content;
  if (auto logical = prepare(path); logical && m_root->write_file(*logical, *content)) {
    ++m_files_written;
    m_kept.insert_or_assign(std::string(path), Kept{*logical, content->size()});
  }
  return content;
}

// The records are stored as a file under root/; where the oldest were
// dropped, file_sizes says how many bytes the device gave.
Result<Records> RecordingHost::read_records(std::string_view path, std::size_t max_bytes) {
  auto records = inner().read_records(path, max_bytes);
  if (!records) {
    record_error(path, records.error());
    return records;
  }
  if (records->dropped()) m_snapshot.file_sizes.insert_or_assign(std::string(path), records->read_bytes);
  if (!keep(path, records->text.size())) return records;
  if (auto logical = prepare(path); logical && m_root->write_file(*logical, records->text)) {
    ++m_files_written;
    m_kept.insert_or_assign(std::string(path), Kept{*logical, records->text.size()});
  }
  return records;
}

// Pieces of a large file are kept and packed at the end (see finish), so a
// snapshot of a 500 MB library holds the few kilobytes the checks read.
Result<std::string> RecordingHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  auto content = inner().read_range(path, offset, size);
  if (!content) {
    record_error(path, content.error());
    return content;
  }
  if (auto info = inner().stat(path)) m_snapshot.file_sizes.insert_or_assign(std::string(path), info->size);
  auto& piece = m_read_pieces[std::string(path)][offset];
  if (content->size() > piece.size()) piece = *content;
  return content;
}

Result<std::vector<std::string>> RecordingHost::list_dir(std::string_view path) {
  auto names = inner().list_dir(path);
  if (!names) {
    record_error(path, names.error());
    return names;
  }
  if (path.starts_with("/dev")) return names;  // device nodes are recorded one by one
  // Git keeps no empty directories, so snapshot.json names every listed one,
  // with its entries: a replay lists what the live run listed, read or not.
  m_snapshot.directories.emplace(path);
  auto& listing = m_snapshot.listings[std::string(path)];
  listing.assign(names->begin(), names->begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(names->size(), k_max_listed_names)));
  if (auto logical = prepare(path)) m_root->make_dirs(*logical);
  return names;
}

Result<std::string> RecordingHost::read_link(std::string_view path) {
  auto target = inner().read_link(path);
  if (!target) {
    // EINVAL only says "not a symlink", which replay says by itself.
    if (target.error().value() != EINVAL) record_error(path, target.error());
    return target;
  }
  if (auto logical = prepare(path, FollowFinal::no)) {
    if (m_root->make_link(*logical, *target) && contained_link_target(*logical, *target) != *target)
      m_snapshot.links.insert_or_assign(*logical, *target);
  }
  return target;
}

Result<FileStat> RecordingHost::stat(std::string_view path) {
  auto info = inner().stat(path);
  if (!info) {
    record_error(path, info.error());
    return info;
  }
  // Something that was only stat-ed still has to exist on replay.
  if (path.starts_with("/dev/")) return info;
  // The stored copy gets the replayer's owner: who may read it is kept where others may not.
  // (At most k_max_file_owners: /sys has many 0600 files a probe may stat.)
  if (info->type == FileType::regular && !(info->mode & 0004) && m_snapshot.file_owners.size() < k_max_file_owners)
    m_snapshot.file_owners.insert_or_assign(std::string(path), FileOwner{info->mode, info->uid, info->gid});
  auto logical = prepare(path);
  if (!logical || m_root->exists(*logical)) return info;
  if (info->type == FileType::directory) m_root->make_dirs(*logical);
  else m_root->write_file(*logical, "", info->mode & 0777);
  return info;
}

Result<DeviceNode> RecordingHost::device(std::string_view path) {
  auto node = inner().device(path);
  if (!node) {
    record_error(path, node.error());
    return node;
  }
  m_snapshot.devices.insert_or_assign(std::string(path), *node);
  return node;
}

std::optional<std::string> RecordingHost::env(std::string_view name) {
  auto value = inner().env(name);
  if (value) m_snapshot.env.insert_or_assign(std::string(name), *value);
  return value;
}

std::vector<std::pair<std::string, std::string>> RecordingHost::env_with_prefix(std::string_view prefix) {
  auto found = inner().env_with_prefix(prefix);
  for (const auto& [name, value] : found) m_snapshot.env.insert_or_assign(name, value);
  return found;
}

Uname RecordingHost::uname() {
  m_snapshot.uname = inner().uname();
  return *m_snapshot.uname;
}

UserIds RecordingHost::user() {
  m_snapshot.user = inner().user();
  return *m_snapshot.user;
}

ChildAnswer RecordingHost::ask(const ChildRequest& request) {
  auto answer = inner().ask(request);
  m_snapshot.children.push_back({request, answer});
  return answer;
}

bool RecordingHost::keep(std::string_view path, std::size_t bytes) {
  if (m_kept_bytes + bytes <= k_max_kept_bytes) {
    m_kept_bytes += bytes;
    return true;
  }
  record_too_large(std::string(path));
  return false;
}

void RecordingHost::record_too_large(const std::string& path) {
  m_snapshot.errors.insert_or_assign(path, errno_name(std::error_code(EFBIG, std::generic_category())));
  ++m_files_not_kept;
}

// Merges overlapping pieces and writes them, back to back, where the file
// belongs; the snapshot's pieces say which offsets they came from.
void RecordingHost::pack_pieces() {
  for (const auto& [path, pieces] : m_read_pieces) {
    std::vector<std::pair<std::uint64_t, std::string>> merged;
    for (const auto& [offset, bytes] : pieces) {
      if (!merged.empty() && offset <= merged.back().first + merged.back().second.size()) {
        auto& last = merged.back();
        const std::uint64_t end = offset + bytes.size(), last_end = last.first + last.second.size();
        if (end > last_end) last.second += bytes.substr(static_cast<std::size_t>(last_end - offset));
      } else {
        merged.emplace_back(offset, bytes);
      }
    }
    const auto logical = prepare(path);
    if (!logical) continue;
    std::string packed;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> table;
    for (const auto& [offset, bytes] : merged) {
      table.emplace_back(offset, bytes.size());
      packed += bytes;
    }
    // A file also read whole (read_file) is already complete.
    const auto size = m_snapshot.file_sizes.find(path);
    if (const auto existing = m_root->regular_size(*logical);
        existing && size != m_snapshot.file_sizes.end() && *existing == size->second)
      continue;
    if (!keep(path, packed.size())) continue;
    if (m_root->write_file(*logical, packed)) {
      ++m_files_written;
      m_kept.insert_or_assign(path, Kept{*logical, packed.size()});
    }
    m_snapshot.pieces[path] = std::move(table);
  }
}

// The largest kept files go until snapshot.json fits beside the rest.
void RecordingHost::make_room_for(std::size_t json_bytes) {
  std::vector<decltype(m_kept)::iterator> largest;
  for (auto kept = m_kept.begin(); kept != m_kept.end(); ++kept) largest.push_back(kept);
  std::sort(largest.begin(), largest.end(), [](const auto& a, const auto& b) { return a->second.bytes > b->second.bytes; });
  for (const auto& kept : largest) {
    if (m_kept_bytes + json_bytes <= k_max_kept_bytes) break;
    if (!m_root->remove_file(kept->second.logical)) continue;
    m_kept_bytes -= kept->second.bytes;
    --m_files_written;
    m_snapshot.pieces.erase(kept->first);
    record_too_large(kept->first);
  }
}

// The variables the checks read are kept whatever their size, up to a point:
// many long ones (each may be 128 KB) would pass what snapshot.json may hold.
// The largest go until it fits; the replay reads them as unset.
std::size_t RecordingHost::drop_variables_past(std::size_t json_bytes, std::size_t limit) {
  // Each round drops by an estimate of what a variable costs, then measures:
  // a round drops at least one, so this ends.
  while (json_bytes > limit && !m_snapshot.env.empty()) {
    std::vector<std::pair<std::size_t, std::string>> by_size;  // bytes in snapshot.json, name
    for (const auto& [name, value] : m_snapshot.env)
      by_size.emplace_back(boost::json::serialize(boost::json::string(snapshot_text(name))).size() +
                               boost::json::serialize(boost::json::string(snapshot_text(value))).size() + 8,
                           name);
    std::sort(by_size.begin(), by_size.end(), std::greater<>());
    std::size_t estimate = json_bytes;
    for (const auto& [bytes, name] : by_size) {
      if (estimate <= limit) break;
      m_snapshot.env.erase(name);
      estimate -= std::min(bytes, estimate);
      ++m_variables_not_kept;
    }
    json_bytes = snapshot_json_size(m_snapshot);
  }
  return json_bytes;
}

Result<void> RecordingHost::finish(const std::string& gpudoctor_version) {
  pack_pieces();
  m_snapshot.gpudoctor_version = gpudoctor_version;
  m_snapshot.redactions = inner().redactions();
  // Each file dropped adds a line of errors: 512 bytes are room for it.
  const std::size_t room_for_errors = 512 * m_kept.size();
  const std::size_t json_bytes = drop_variables_past(snapshot_json_size(m_snapshot), k_max_snapshot_json - room_for_errors - (64 << 10));
  make_room_for(json_bytes + room_for_errors);
  return write_snapshot(m_out, m_snapshot);
}

}  // namespace gd
