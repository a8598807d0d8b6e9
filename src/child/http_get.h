#pragma once
// One HTTP GET on a daemon's unix socket, as the children that ask daemons
// over HTTP make it (dockerd's GET /info, CRI-O's GET /config): HTTP/1.0,
// so the server closes the connection after its answer and no keep-alive
// or chunk boundary decides where the body ends.

#include "util/checked.h"

#include <optional>
#include <string>
#include <string_view>

namespace gd {

// An HTTP/1.x response as a server gives it to an HTTP/1.0 request: its
// status and its body (read to the end, or de-chunked); nullopt where it is
// not one.
struct HttpResponse {
  int status = 0;
  std::string body;
};
std::optional<HttpResponse> parse_http_response(std::string_view text);

// The body of a 200 answer to GET `path` from `daemon` (its name, for the
// words) on `socket`, up to the cap every child's output has; else what went
// wrong, in a line a child prints on stderr.
Checked<std::string> http_get(std::string_view daemon, const std::string& socket, std::string_view path);

}  // namespace gd
