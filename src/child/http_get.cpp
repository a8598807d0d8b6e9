#include "child/http_get.h"

#include "child/child_evidence.h"
#include "child/unix_socket.h"
#include "util/result.h"
#include "util/text.h"

namespace gd {
namespace {

bool has_header(std::string_view headers, std::string_view name, std::string_view value) {
  for (std::size_t start = 0; start < headers.size();) {
    const std::size_t end = std::min(headers.find("\r\n", start), headers.size());
    const std::string_view line = headers.substr(start, end - start);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && to_lower(trim(line.substr(0, colon))) == name && to_lower(trim(line.substr(colon + 1))) == value)
      return true;
    start = end + 2;
  }
  return false;
}

// A chunked body: "SIZE\r\nDATA\r\n" until a chunk of size 0.
std::optional<std::string> unchunk(std::string_view text) {
  std::string body;
  while (true) {
    const std::size_t line_end = text.find("\r\n");
    if (line_end == std::string_view::npos) return std::nullopt;
    const std::string_view line = text.substr(0, line_end);
    const std::string_view digits = line.substr(0, line.find(';'));  // a chunk extension after ';' is not ours
    // Hex digits alone (parse_hex would also take "0x" and spaces), 8 at most.
    if (digits.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) return std::nullopt;
    const auto parsed = parse_hex(digits);
    if (!parsed) return std::nullopt;
    const std::size_t size = *parsed;
    text.remove_prefix(line_end + 2);
    if (size == 0) return body;
    if (text.size() < size) return std::nullopt;
    body.append(text.substr(0, size));
    text.remove_prefix(std::min(text.size(), size + 2));
  }
}

}  // namespace

std::optional<HttpResponse> parse_http_response(std::string_view text) {
  const std::size_t head_end = text.find("\r\n\r\n");
  if (!text.starts_with("HTTP/1.") || head_end == std::string_view::npos) return std::nullopt;
  const std::string_view status_line = text.substr(0, text.find("\r\n"));
  const std::size_t space = status_line.find(' ');
  const auto status = space == std::string_view::npos ? std::nullopt : parse_int(status_line.substr(space + 1, 3));
  if (!status || *status < 100 || *status > 599) return std::nullopt;
  const std::string_view headers = text.substr(0, head_end);
  const std::string_view rest = text.substr(head_end + 4);
  HttpResponse response{.status = static_cast<int>(*status), .body = {}};
  if (has_header(headers, "transfer-encoding", "chunked")) {
    auto body = unchunk(rest);
    if (!body) return std::nullopt;
    response.body = std::move(*body);
  } else {
    response.body = std::string(rest);
  }
  return response;
}

Checked<std::string> http_get(std::string_view daemon, const std::string& socket, std::string_view path) {
  const auto fd = connect_unix(socket);
  if (!fd) return problem(cannot_connect(daemon, socket, fd.error()));
  // Go's net/http answers HTTP/1.0 without chunks and closes the connection after it.
  const std::string request = concat({"GET ", path, " HTTP/1.0\r\nHost: localhost\r\nUser-Agent: gpudoctor\r\n\r\n"});
  if (const auto sent = send_all(fd->get(), request); !sent)
    return problem(concat({daemon, " at ", socket, " closed the connection: ", errno_name(sent.error())}));
  // A connection reset ends the answer as the server's close does.
  std::string text;
  (void)receive_until_close(fd->get(), k_max_child_output, text);
  if (text.size() > k_max_child_output)
    return problem(concat({daemon, "'s answer is larger than ", std::to_string(k_max_child_output >> 20), " MiB: not read"}));
  auto response = parse_http_response(text);
  if (!response) return problem(concat({"what answered on ", socket, " is not an HTTP server"}));
  if (response->status != 200)
    return problem(concat({daemon, " answered GET ", path, " with HTTP ", std::to_string(response->status), ": ", printable(trim(response->body), 160)}));
  return std::move(response->body);
}

}  // namespace gd
