#include "host/live_host.h"

#include "host/file_mode.h"

#include "child/child_main.h"
#include "child/child_runner.h"
#include "child/child_session.h"
#include "host/local_fs.h"
#include "host/root_dir.h"
#include "util/text.h"
#include <fcntl.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

extern char** environ;

namespace gd {
LiveHost::LiveHost(std::string root_dir) : m_root(std::move(root_dir)) {
  while (m_root.size() > 1 && m_root.back() == '/') m_root.pop_back();
  if (m_root == "/") return;
  auto opened = RootDir::open(m_root, true);
  if (opened) m_root_dir.emplace(std::move(*opened));
  else m_root_error = opened.error();
}

Result<std::string> LiveHost::read_file(std::string_view path, std::size_t max_bytes) {
  if (m_root == "/") return read_local_file(std::string(path), max_bytes);
  if (!m_root_dir) return m_root_error;
  return m_root_dir->read_file(path, max_bytes);
}

Result<std::string> LiveHost::read_range(std::string_view path, std::uint64_t offset, std::size_t size) {
  if (!m_open_fd.valid() || m_open_path != path) {
    auto fd = m_root == "/"   ? open_local_regular(std::string(path))
              : m_root_dir ? m_root_dir->open_regular(path)
                           : Result<UniqueFd>(m_root_error);
    if (!fd) return fd.error();
    m_open_fd = std::move(*fd);
    m_open_path = std::string(path);
  }
  return pread_all(m_open_fd.get(), offset, size);
}

Result<std::vector<std::string>> LiveHost::list_dir(std::string_view path) {
  if (m_root == "/") return list_local_dir(std::string(path));
  if (!m_root_dir) return m_root_error;
  return m_root_dir->list_dir(path);
}

Result<std::string> LiveHost::read_link(std::string_view path) {
  if (m_root == "/") return read_local_link(std::string(path));
  if (!m_root_dir) return m_root_error;
  return m_root_dir->read_link(path);
}

Result<FileStat> LiveHost::stat(std::string_view path) {
  if (m_root == "/") return stat_local(std::string(path));
  if (!m_root_dir) return m_root_error;
  return m_root_dir->stat(path);
}

// Under a root the image's /dev/kmsg is not this machine's kernel: not read.
Result<Records> LiveHost::read_records(std::string_view path, std::size_t max_bytes) {
  if (mode() == HostMode::root) return errno_code(ENOSYS);
  return read_local_records(std::string(path), max_bytes);
}

Result<DeviceNode> LiveHost::device(std::string_view path) {
  struct stat info {};
  if (m_root == "/") {
    if (::stat(std::string(path).c_str(), &info) != 0) return errno_code(errno);
  } else {
    if (!m_root_dir) return m_root_error;
    auto fd = m_root_dir->open_at(path, O_PATH, FollowFinal::yes);
    if (!fd) return fd.error();
    if (::fstat(fd->get(), &info) != 0) return errno_code(errno);
  }
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

namespace {

// "nvidia-smi -q", or "the driver (cuda-probe)": what the note says is being waited for.
std::string waited_for(const ChildRequest& request) {
  if (request.kind == ChildKind::docker_api) return "dockerd (GET /info)";
  if (request.kind == ChildKind::cri_status) return "containerd (CRI status)";
  if (request.kind == ChildKind::crio_config) return "crio (GET /config)";
  if (request.kind != ChildKind::command)
    return std::string("the driver (") + child_kind_name(request.kind) + ")";
  std::string what;
  for (std::size_t i = 0; i < request.args.size() && i < 2; ++i) {
    const std::string& arg = request.args[i];
    what += (i ? " " : "") + (i == 0 ? arg.substr(arg.rfind('/') + 1) : arg);
  }
  return printable(what, 60);
}

}  // namespace

ChildAnswer LiveHost::ask(const ChildRequest& request) {
  if (mode() == HostMode::root) {
    // The image's programs are not run and its device nodes not opened:
    // they may be for another machine, and running them is not reading them.
    ChildAnswer answer;
    answer.error = "ENOSYS";
    return answer;
  }
  // A person at a terminal sees why the report is late; a log or pipe gets nothing.
  std::optional<WaitingNote> note;
  if (::isatty(2)) note = WaitingNote{"waiting for " + waited_for(request)};
  if (auto answer = m_ahead.take(request, note)) return *answer;
  return run_child(argv_of(request), request.deadline, request.keep, note);
}

void LiveHost::ask_ahead(const ChildRequest& request) {
  if (mode() == HostMode::root) return;
  m_ahead.start(request, [argv = argv_of(request), request](const std::function<void(int)>& started) {
    return run_child(argv, request.deadline, request.keep, std::nullopt, started);
  });
}

std::unique_ptr<ChildSession> LiveHost::open_session(const ChildRequest& request) {
  if (mode() == HostMode::root) return nullptr;
  return start_child_session(argv_of(request), request.keep);
}

std::vector<std::string> LiveHost::argv_of(const ChildRequest& request) const {
  if (request.kind == ChildKind::command) return request.args;
  std::vector<std::string> argv{own_program(), k_child_command, child_kind_name(request.kind)};
  argv.insert(argv.end(), request.args.begin(), request.args.end());
  return argv;
}

}  // namespace gd
