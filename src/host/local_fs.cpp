#include "host/local_fs.h"

#include "host/file_mode.h"
#include "util/interrupt_cleanup.h"
#include "util/text.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>  // renameat2, RENAME_NOREPLACE
#include <cstdlib>
#include <cerrno>

namespace gd {

namespace {

// O_NONBLOCK so that a FIFO planted where a file should be cannot hang us.
UniqueFd open_for_reading(const std::string& path) {
  return UniqueFd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
}

// fstat of a descriptor that must be a regular file; else EISDIR or EINVAL.
Result<struct stat> regular_file_stat(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return errno_code(S_ISDIR(info.st_mode) ? EISDIR : EINVAL);
  return info;
}

}  // namespace

Result<std::string> read_fd(UniqueFd fd, std::size_t max_bytes) {
  // Straight into the string, sized at first as the file says it is plus one
  // byte, so the read after the last sees the end in the space left: a cache
  // or a log is neither copied as it grows nor given room it never uses.
  // procfs and sysfs say 0: their files grow the string as they are read.
  // The one fstat also refuses what is not a regular file.
  const auto info = regular_file_stat(fd.get());
  if (!info) return info.error();
  std::size_t size = 16384;
  if (info->st_size > 0 && static_cast<std::uint64_t>(info->st_size) < max_bytes)
    size = std::max(size, static_cast<std::size_t>(info->st_size) + 1);
  std::string content(std::min(size, max_bytes), '\0');
  std::size_t done = 0;
  while (done < max_bytes) {
    if (done == content.size()) content.resize(std::min(max_bytes, 2 * done));  // full: double it
    const ssize_t n = ::read(fd.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_code(errno);
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
}

Result<std::string> read_local_file(const std::string& path, std::size_t max_bytes) {
  UniqueFd fd = open_for_reading(path);
  if (!fd.valid()) return errno_code(errno);
  return read_fd(std::move(fd), max_bytes);
}

Result<UniqueFd> check_regular(UniqueFd fd) {
  if (auto info = regular_file_stat(fd.get()); !info) return info.error();
  return fd;
}

// Opens a regular file for reading; anything but a regular file is refused.
Result<UniqueFd> open_local_regular(const std::string& path) {
  UniqueFd fd = open_for_reading(path);
  if (!fd.valid()) return errno_code(errno);
  return check_regular(std::move(fd));
}

Result<std::string> pread_all(int fd, std::uint64_t offset, std::size_t size) {
  std::string content(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, content.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_code(errno);
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
}

namespace {

// The kernel's message device, mem's minor 11 (Documentation/admin-guide/devices.txt).
bool is_kmsg(const struct stat& info) { return S_ISCHR(info.st_mode) && major(info.st_rdev) == 1 && minor(info.st_rdev) == 11; }

}  // namespace

Result<Records> read_local_records(const std::string& path, std::size_t max_bytes) {
  // Looked at before it is opened: opening another device may act (a
  // watchdog starts counting), and a diagnosis changes nothing.
  struct stat before {}, info {};
  if (::stat(path.c_str(), &before) != 0) return errno_code(errno);
  if (!is_kmsg(before) && !S_ISFIFO(before.st_mode)) return errno_code(EINVAL);
  UniqueFd fd = open_for_reading(path);
  if (!fd.valid()) return errno_code(errno);
  if (::fstat(fd.get(), &info) != 0) return errno_code(errno);
  if (info.st_ino != before.st_ino || info.st_dev != before.st_dev || info.st_rdev != before.st_rdev) return errno_code(EINVAL);
  // A kernel logging faster than we read never ends the loop by itself.
  const std::uint64_t most = 8 * static_cast<std::uint64_t>(max_bytes);
  Records records;
  std::array<char, 16384> record{};  // a kmsg record is at most 8 KiB, text and dictionary
  while (records.read_bytes < most) {
    const ssize_t n = ::read(fd.get(), record.data(), record.size());
    if (n < 0 && (errno == EINTR || errno == EPIPE)) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n < 0) return errno_code(errno);
    if (n == 0) break;
    records.text.append(record.data(), static_cast<std::size_t>(n));
    records.read_bytes += static_cast<std::uint64_t>(n);
    if (records.text.size() > 2 * max_bytes) keep_newest_records(records.text, max_bytes);  // now and then, not each record
  }
  if (records.text.size() > max_bytes) keep_newest_records(records.text, max_bytes);
  return records;
}

Result<std::string> read_local_range(const std::string& path, std::uint64_t offset, std::size_t size) {
  auto opened = open_local_regular(path);
  if (!opened) return opened.error();
  return pread_all(opened->get(), offset, size);
}

Result<std::vector<std::string>> list_fd_dir(UniqueFd fd) {
  DIR* dir = ::fdopendir(fd.get());
  if (!dir) return errno_code(errno);
  fd.release();  // the DIR owns it now
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);  // closes fd
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::vector<std::string>> list_local_dir(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return errno_code(errno);
  return list_fd_dir(std::move(fd));
}

Result<std::string> read_local_link(const std::string& path) {
  std::string target(4096, '\0');
  const ssize_t size = ::readlink(path.c_str(), target.data(), target.size());
  if (size < 0) return errno_code(errno);
  target.resize(static_cast<std::size_t>(size));
  return target;
}

Result<FileStat> stat_fd(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return errno_code(errno);
  return FileStat{file_type_of(info.st_mode), static_cast<std::uint32_t>(info.st_mode & 07777), info.st_uid, info.st_gid,
                  static_cast<std::uint64_t>(info.st_size)};
}

Result<FileStat> stat_local(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return errno_code(errno);
  return FileStat{file_type_of(info.st_mode), static_cast<std::uint32_t>(info.st_mode & 07777), info.st_uid, info.st_gid,
                  static_cast<std::uint64_t>(info.st_size)};
}

namespace {

// Moves temporary to path; without replace, only where path is free: renameat2's
// RENAME_NOREPLACE, else (a filesystem without it) link() then unlink(), which fails alike.
int move_into_place(const std::string& temporary, const std::string& path, bool replace) {
  if (replace) return ::rename(temporary.c_str(), path.c_str()) == 0 ? 0 : errno;
  if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::link(temporary.c_str(), path.c_str()) != 0) return errno;
  ::unlink(temporary.c_str());
  return 0;
}

Result<void> write_atomically(const std::string& path, std::string_view content, unsigned mode, bool replace) {
  std::string temporary = path + ".tmp.XXXXXX";
  UniqueFd fd(::mkstemp(temporary.data()));
  if (!fd.valid()) return errno_code(errno);
  const RemoveOnInterrupt half_written(temporary);  // renamed away, or removed, however it ends
  bool written = ::fchmod(fd.get(), static_cast<mode_t>(mode)) == 0;
  for (std::size_t done = 0; written && done < content.size();) {
    const ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) done += static_cast<std::size_t>(n);
  }
  int error = written ? 0 : errno;
  if (written && ::fsync(fd.get()) != 0) error = errno, written = false;
  fd.reset();  // closed before the rename, so the new file is whole when it appears
  if (written) {
    if (const int moved = move_into_place(temporary, path, replace); moved != 0) error = moved, written = false;
  }
  if (!written) {
    ::unlink(temporary.c_str());
    return errno_code(error ? error : EIO);
  }
  return {};
}

}  // namespace

Result<void> write_file_atomically(const std::string& path, std::string_view content, unsigned mode) {
  return write_atomically(path, content, mode, true);
}

Result<void> write_new_file_atomically(const std::string& path, std::string_view content, unsigned mode) {
  return write_atomically(path, content, mode, false);
}

namespace {

Result<void> write_into(const std::string& path, std::string_view content) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) return errno_code(errno);
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);  // a reader is there: block as writes normally do
  int error = 0;
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  return error ? Result<void>(errno_code(error)) : Result<void>();
}

}  // namespace

// What a new file gets where the user creates it: 0666 less the umask, as
// open(2) would give it (the temporary file's 0600 is not what they asked for).
unsigned new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~static_cast<unsigned>(mask);
}

Result<void> write_output_file(const std::string& path, std::string_view content) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) return errno_code(errno);
    return write_file_atomically(path, content, new_file_mode());
  }
  // Replaced, the file keeps the mode its owner gave it (a 0600 report stays private).
  if (S_ISREG(link.st_mode)) return write_file_atomically(path, content, link.st_mode & 07777);
  struct stat target {};
  if (S_ISLNK(link.st_mode)) {
    if (::stat(path.c_str(), &target) != 0) return errno_code(errno);  // dangling: nothing to follow
    if (S_ISREG(target.st_mode)) {
      char resolved[PATH_MAX];
      if (!::realpath(path.c_str(), resolved)) return errno_code(errno);
      return write_file_atomically(resolved, content, target.st_mode & 07777);
    }
  } else {
    target = link;
  }
  if (S_ISDIR(target.st_mode)) return errno_code(EISDIR);
  return write_into(path, content);
}

}  // namespace gd
