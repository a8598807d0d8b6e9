#include "host/live_host.h"

#include "host/child_main.h"
#include "host/child_runner.h"
#include "host/local_fs.h"
#include "host/path_chase.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

extern char** environ;

namespace gd {
namespace {

FileType file_type_of(mode_t mode) {
  if (S_ISCHR(mode)) return FileType::char_device;
  if (S_ISBLK(mode)) return FileType::block_device;
  if (S_ISREG(mode)) return FileType::regular;
  if (S_ISDIR(mode)) return FileType::directory;
  return FileType::other;
}

}  // namespace

LiveHost::LiveHost(std::string root_dir) : m_root(std::move(root_dir)) {
  while (m_root.size() > 1 && m_root.back() == '/') m_root.pop_back();
}

Result<std::string> LiveHost::local_path(std::string_view path, bool follow_final) const {
  if (m_root == "/") return std::string(path);
  return chase(m_root, path, follow_final ? FollowFinal::yes : FollowFinal::no);
}

Result<std::string> LiveHost::read_file(std::string_view path, std::size_t max_bytes) {
  auto local = local_path(path, true);
  if (!local) return local.error();
  return read_local_file(*local, max_bytes);
}

LiveHost::~LiveHost() {
  if (m_open_fd >= 0) ::close(m_open_fd);
}

Result<std::string> LiveHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  if (m_open_fd < 0 || m_open_path != path) {
    auto local = local_path(path, true);
    if (!local) return local.error();
    auto fd = open_local_regular(*local);
    if (!fd) return fd.error();
    if (m_open_fd >= 0) ::close(m_open_fd);
    m_open_fd = *fd;
    m_open_path = std::string(path);
  }
  return pread_all(m_open_fd, offset, size);
}

Result<std::vector<std::string>> LiveHost::list_dir(std::string_view path) {
  auto local = local_path(path, true);
  if (!local) return local.error();
  return list_local_dir(*local);
}

Result<std::string> LiveHost::read_link(std::string_view path) {
  auto local = local_path(path, false);
  if (!local) return local.error();
  return read_local_link(*local);
}

Result<FileStat> LiveHost::stat(std::string_view path) {
  auto local = local_path(path, true);
  if (!local) return local.error();
  return stat_local(*local);
}

Result<DeviceNode> LiveHost::device(std::string_view path) {
  auto local = local_path(path, true);
  if (!local) return local.error();
  struct stat info {};
  if (::stat(local->c_str(), &info) != 0) return errno_code(errno);
  DeviceNode node;
  node.type = file_type_of(info.st_mode);
  node.major = ::major(info.st_rdev);
  node.minor = ::minor(info.st_rdev);
  node.mode = info.st_mode & 07777;
  node.uid = info.st_uid;
  node.gid = info.st_gid;
  return node;
}

std::optional<std::string> LiveHost::env(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

std::vector<std::pair<std::string, std::string>> LiveHost::env_with_prefix(std::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> found;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string_view text(*entry);
    const auto equals = text.find('=');
    if (equals == std::string_view::npos || !text.substr(0, equals).starts_with(prefix)) continue;
    found.emplace_back(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  std::sort(found.begin(), found.end());
  return found;
}

Uname LiveHost::uname() {
  struct utsname info {};
  if (::uname(&info) != 0) return {};
  return {info.sysname, info.release, info.version, info.machine};
}

UserIds LiveHost::user() {
  UserIds ids{::geteuid(), ::getegid(), {}};
  const int count = ::getgroups(0, nullptr);
  if (count > 0) {
    std::vector<gid_t> groups(static_cast<std::size_t>(count));
    const int got = ::getgroups(count, groups.data());
    for (int i = 0; i < got; ++i) ids.groups.push_back(groups[static_cast<std::size_t>(i)]);
  }
  return ids;
}

// Our own program, re-executed for child evidence that needs no other
// program (a device open): /proc/self/exe is this process, not the
// diagnosed system, so it is read directly.
std::string own_program() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

ChildAnswer LiveHost::ask(const ChildRequest& request) {
  if (mode() == HostMode::root) {
    // The image's programs are not run and its device nodes not opened:
    // they may be for another machine, and running them is not reading them.
    ChildAnswer answer;
    answer.error = "ENOSYS";
    return answer;
  }
  if (request.kind == ChildKind::command) return run_child(request.args, request.deadline);
  std::vector<std::string> argv{own_program(), k_child_command, child_kind_name(request.kind)};
  argv.insert(argv.end(), request.args.begin(), request.args.end());
  return run_child(argv, request.deadline);
}

const char* host_mode_name(HostMode mode) {
  switch (mode) {
    case HostMode::live: return "live";
    case HostMode::root: return "root";
    case HostMode::replay: return "replay";
  }
  return "live";
}

const char* file_type_name(FileType type) {
  switch (type) {
    case FileType::regular: return "file";
    case FileType::directory: return "directory";
    case FileType::symlink: return "symlink";
    case FileType::char_device: return "char";
    case FileType::block_device: return "block";
    case FileType::other: return "other";
  }
  return "other";
}

FileType parse_file_type(std::string_view name) {
  for (auto type : {FileType::regular, FileType::directory, FileType::symlink, FileType::char_device, FileType::block_device})
    if (name == file_type_name(type)) return type;
  return FileType::other;
}

}  // namespace gd
