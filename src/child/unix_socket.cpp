#include "child/unix_socket.h"

#include "util/text.h"

#include <sys/socket.h>
#include <sys/un.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gd {

Result<UniqueFd> connect_unix(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof address.sun_path) return errno_code(ENAMETOOLONG);
  std::memcpy(address.sun_path, path.data(), path.size());
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return errno_code(errno);
  while (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    if (errno != EINTR) return errno_code(errno);
  return fd;
}

std::string cannot_connect(std::string_view daemon, const std::string& path, const std::error_code& error) {
  return concat({"cannot connect to ", daemon, " at ", path, ": ", to_lower(error.message()), " (", errno_name(error), ")"});
}

Result<void> send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return errno_code(sent < 0 ? errno : EPIPE);
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return {};
}

namespace {

// One recv into `to`: the bytes it got (0 at the end of the stream).
Result<std::size_t> receive_some(int fd, std::size_t most, std::string& to) {
  char buffer[16384];
  while (true) {
    const ssize_t got = ::recv(fd, buffer, std::min(most, sizeof buffer), 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno_code(errno);
    to.append(buffer, static_cast<std::size_t>(got));
    return static_cast<std::size_t>(got);
  }
}

}  // namespace

Result<void> receive_exactly(int fd, std::size_t bytes, std::string& to) {
  while (bytes > 0) {
    const auto got = receive_some(fd, bytes, to);
    if (!got) return got.error();
    if (*got == 0) return {};
    bytes -= *got;
  }
  return {};
}

Result<void> receive_until_close(int fd, std::size_t cap, std::string& to) {
  while (to.size() <= cap) {
    const auto got = receive_some(fd, 16384, to);
    if (!got) return got.error();
    if (*got == 0) break;
  }
  return {};
}

}  // namespace gd
