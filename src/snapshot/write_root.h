#pragma once
// The one place a snapshot's files are written: below a directory
// descriptor opened once, every component entered or created with
// O_NOFOLLOW, so that nothing is ever written through a symlink — whatever
// the recorded system puts in the way, even while we write. Symlinks are
// stored so that they resolve inside the snapshot (see contained_link_target).

#include "host/host.h"
#include "util/unique_fd.h"

#include <string>
#include <string_view>

namespace gd {

class WriteRoot {
 public:
  // dir must be a directory, not a symlink to one.
  static Result<WriteRoot> open(const std::string& dir);

  // Each takes an absolute logical path ("/usr/lib/libcuda.so.1") and
  // fails, writing nothing, when a component on the way is not a real directory.
  bool make_dirs(std::string_view path);
  bool write_file(std::string_view path, std::string_view content, unsigned mode = 0644);
  bool make_link(std::string_view path, std::string_view target);
  // Removes a file written earlier (never a directory).
  bool remove_file(std::string_view path);
  // lstat below the root: the file's size, or nothing when it is absent or not a regular file.
  std::optional<std::uint64_t> regular_size(std::string_view path);
  bool exists(std::string_view path);

 private:
  explicit WriteRoot(UniqueFd fd) : m_fd(std::move(fd)) {}
  // The directory that holds path's last component (created when asked), and that component.
  Result<UniqueFd> parent_of(std::string_view path, bool create, std::string& name);

  UniqueFd m_fd;
};

// The target to store for a symlink at link_path so that it resolves, inside
// the snapshot, to what target meant on the recorded system: an absolute
// target becomes relative to the link's directory ("/usr/lib/x" at
// "/usr/lib64" is "../usr/lib/x"), and one that would climb above the root
// is normalised there. No stored link points outside the snapshot.
std::string contained_link_target(std::string_view link_path, std::string_view target);

}  // namespace gd
