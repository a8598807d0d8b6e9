#pragma once
// Plain reads of files that sit on this machine: the building blocks of the
// live, root and replay hosts and of RootDir. Bounded, and safe against
// FIFOs and other special files planted where a file should be.

#include "host/host.h"
#include "util/unique_fd.h"

#include <string>
#include <vector>

namespace gd {

Result<std::string> read_local_file(const std::string& path, std::size_t max_bytes);
// The same from descriptors (RootDir's opens); each takes the descriptor.
// read_fd refuses what is not a regular file (EISDIR, EINVAL), as check_regular does.
Result<std::string> read_fd(UniqueFd fd, std::size_t max_bytes);
Result<std::vector<std::string>> list_fd_dir(UniqueFd fd);
// Returns fd when it is a regular file, else fails (EISDIR, EINVAL).
Result<UniqueFd> check_regular(UniqueFd fd);
// fstat of a descriptor, not taking it.
Result<FileStat> stat_fd(int fd);
// Opens a regular file for reading (O_NONBLOCK: a FIFO cannot hang us).
Result<UniqueFd> open_local_regular(const std::string& path);
// Up to size bytes from offset of an open file.
Result<std::string> pread_all(int fd, std::uint64_t offset, std::size_t size);
Result<std::string> read_local_range(const std::string& path, std::uint64_t offset, std::size_t size);
Result<std::vector<std::string>> list_local_dir(const std::string& path);
Result<std::string> read_local_link(const std::string& path);
Result<FileStat> stat_local(const std::string& path);
// The kernel's record device (/dev/kmsg, char 1:11), or a pipe (what tests
// feed it through): read until it has no more, never waiting; a record
// overwritten while being reached (EPIPE) is skipped. Past max_bytes the
// oldest whole records (a line and its indented ones) go. Anything else,
// another device above all, is refused unopened (EINVAL).
Result<Records> read_local_records(const std::string& path, std::size_t max_bytes);

// Writes content to a new temporary file beside path, then renames it over
// path: a reader (node_exporter's textfile collector, a ticket upload) sees
// the old file or the whole new one, never half. The file gets `mode`.
Result<void> write_file_atomically(const std::string& path, std::string_view content, unsigned mode = 0644);

// The same, but only where nothing is at path when the file is put there
// (EEXIST otherwise, and nothing replaced): for an output the user named
// that must not clobber what appeared at that place meanwhile.
Result<void> write_new_file_atomically(const std::string& path, std::string_view content, unsigned mode = 0644);

// An output path the user named: a regular file (or nothing yet) is
// replaced atomically; a symlink is followed and its target replaced; a
// character device, FIFO or socket (/dev/null, /dev/stdout, a pipe) is
// written into, never replaced by a file; a directory is an error. A FIFO
// nobody reads is ENXIO at once, not a hang. A replaced file keeps its mode;
// a new one gets 0666 less the umask, as any program's new file does.
Result<void> write_output_file(const std::string& path, std::string_view content);

}  // namespace gd
