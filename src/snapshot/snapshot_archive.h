#pragma once
// A snapshot as one file to attach to a ticket: DIR packed as NAME.tar.gz
// (every entry under one folder, NAME/, so `tar xzf` makes a snapshot
// directory), and such a file read back whole into memory for replay.

#include "snapshot/snapshot.h"
#include "snapshot/stored_files.h"

#include "util/checked.h"

#include <memory>
#include <string>

namespace gd {

inline constexpr std::size_t k_max_archive_bytes = 64 << 20;    // compressed, as read
inline constexpr std::size_t k_max_unpacked_bytes = 64 << 20;  // a real snapshot holds a few MB

bool is_archive_name(std::string_view path);  // ends in .tar.gz or .tgz

// Packs snapshot directory dir into archive_path, written atomically (a
// reader never sees half an archive) and only where nothing is at that path
// when it is put there; otherwise the problem, in words.
Checked<> pack_snapshot(const std::string& dir, const std::string& archive_path);

struct UnpackedSnapshot {
  Snapshot snapshot;
  std::unique_ptr<MemoryFiles> files;  // what root/ held
};

// Throws SnapshotError naming the problem: not gzip, not tar, past a cap,
// no snapshot.json in it.
UnpackedSnapshot unpack_snapshot(const std::string& archive_path);

}  // namespace gd
