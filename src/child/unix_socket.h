#pragma once
// A daemon's unix socket as the children that ask daemons use it (dockerd's
// HTTP, containerd's gRPC): connect, send all of a request, read what comes.
// Blocking: the parent's deadline ends a child whose daemon never answers.

#include "util/result.h"
#include "util/unique_fd.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace gd {

// A connected stream socket; the errno of socket(2) or connect(2) otherwise.
Result<UniqueFd> connect_unix(const std::string& path);

// "cannot connect to DAEMON at PATH: permission denied (EACCES)": what a
// child says where connect_unix failed.
std::string cannot_connect(std::string_view daemon, const std::string& path, const std::error_code& error);

// Every byte sent (retried past EINTR and short writes); EPIPE where the peer closed.
Result<void> send_all(int fd, std::string_view bytes);

// Up to `bytes` more bytes (fewer only at the end of the stream), appended to `to`.
Result<void> receive_exactly(int fd, std::size_t bytes, std::string& to);

// What comes until the peer closes, up to `cap` bytes and one read more:
// more than `cap` in `to` says the answer was longer.
Result<void> receive_until_close(int fd, std::size_t cap, std::string& to);

}  // namespace gd
