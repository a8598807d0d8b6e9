#pragma once
// A directory that stands for "/" (--root DIR, a snapshot's root). Every
// path is resolved inside it in the same step as it is opened — openat2
// with RESOLVE_IN_ROOT where the kernel has it (5.6+), else a walk of
// openat(O_NOFOLLOW) calls from a directory descriptor held all along — so
// that no symlink, planted or swapped in while we read, leads out of it.
// Absolute symlinks restart at the root and ".." stops there, as walk_path does.

#include "host/host.h"
#include "host/path_walk.h"
#include "util/unique_fd.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

struct open_how;  // <linux/openat2.h>

namespace gd {

enum class ResolveMethod { automatic, walk };  // walk: never openat2 (tests; kernels before 5.6)

// The openat2 system call, replaceable so that a test can make it answer
// EAGAIN (as a busy host's renames do) deterministically.
using Openat2Call = long (*)(int dir_fd, const char* path, ::open_how* how, std::size_t size);
long system_openat2(int dir_fd, const char* path, ::open_how* how, std::size_t size);

class RootDir {
 public:
  // dir_may_be_link: --root DIR may name a symlink (the user's choice); a
  // snapshot's root may not, or a snapshot could make us read this machine.
  static Result<RootDir> open(const std::string& dir, bool dir_may_be_link, ResolveMethod method = ResolveMethod::automatic,
                              Openat2Call openat2 = &system_openat2);

  // A descriptor for path inside the root; flags as for openat (O_PATH for stat and readlink).
  Result<UniqueFd> open_at(std::string_view path, int flags, FollowFinal follow) const;

  Result<std::string> read_file(std::string_view path, std::size_t max_bytes) const;
  Result<UniqueFd> open_regular(std::string_view path) const;
  Result<std::vector<std::string>> list_dir(std::string_view path) const;
  Result<std::string> read_link(std::string_view path) const;
  Result<FileStat> stat(std::string_view path) const;

 private:
  RootDir(UniqueFd fd, ResolveMethod method, Openat2Call openat2) : m_fd(std::move(fd)), m_method(method), m_openat2(openat2) {}
  Result<UniqueFd> walk(std::string_view path, int flags, FollowFinal follow) const;
  // A file to read: O_NONBLOCK, so that a FIFO there cannot hang us; not yet checked to be regular.
  Result<UniqueFd> open_for_reading(std::string_view path) const;

  UniqueFd m_fd;
  ResolveMethod m_method = ResolveMethod::automatic;
  Openat2Call m_openat2 = &system_openat2;
};

}  // namespace gd
