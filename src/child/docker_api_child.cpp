#include "child/docker_api_child.h"

#include "child/child_evidence.h"
#include "child/unix_socket.h"
#include "util/result.h"
#include "util/text.h"

#include <boost/json.hpp>

#include <iostream>

namespace gd {
namespace {

// HTTP/1.0: the server closes the connection after its answer, so the body
// is what comes until then (Go's net/http neither chunks nor keeps it open).
constexpr std::string_view k_request = "GET /info HTTP/1.0\r\nHost: docker\r\nUser-Agent: gpudoctor\r\n\r\n";

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

std::optional<std::string> docker_info_fields(std::string_view body) {
  boost::system::error_code error;
  const auto document = boost::json::parse(body, error);
  if (error || !document.is_object()) return std::nullopt;
  const auto& info = document.get_object();
  boost::json::object fields;
  for (const char* key : {"ServerVersion", "DefaultRuntime"})
    if (const auto* value = info.if_contains(key); value && value->is_string()) fields[key] = *value;
  boost::json::object runtimes;
  if (const auto* listed = info.if_contains("Runtimes"); listed && listed->is_object())
    for (const auto& [name, runtime] : listed->get_object()) {
      boost::json::object entry;
      const auto* path = runtime.is_object() ? runtime.get_object().if_contains("path") : nullptr;
      if (path && path->is_string()) entry["path"] = *path;
      runtimes[name] = std::move(entry);
    }
  fields["Runtimes"] = std::move(runtimes);
  return boost::json::serialize(fields);
}

int docker_api_child(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::cerr << "usage: docker-api SOCKET\n";
    return 2;
  }
  const std::string& path = args[0];
  const auto fd = connect_unix(path);
  if (!fd) {
    std::cerr << cannot_connect("dockerd", path, fd.error()) << "\n";
    return 1;
  }
  if (const auto sent = send_all(fd->get(), k_request); !sent) {
    std::cerr << "dockerd at " << path << " closed the connection: " << errno_name(sent.error()) << "\n";
    return 1;
  }
  // The answer, up to the cap every child's output has; a connection reset ends it as the server's close does.
  std::string text;
  (void)receive_until_close(fd->get(), k_max_child_output, text);
  if (text.size() > k_max_child_output) {
    std::cerr << "dockerd's answer is larger than " << (k_max_child_output >> 20) << " MiB: not read\n";
    return 1;
  }
  const auto response = parse_http_response(text);
  if (!response) {
    std::cerr << "what answered on " << path << " is not an HTTP server\n";
    return 1;
  }
  if (response->status != 200) {
    std::cerr << "dockerd answered GET /info with HTTP " << response->status << ": " << printable(trim(response->body), 160) << "\n";
    return 1;
  }
  const auto fields = docker_info_fields(response->body);
  if (!fields) {
    std::cerr << "dockerd's answer to GET /info is not a JSON object\n";
    return 1;
  }
  std::cout << *fields << "\n";
  return 0;
}

}  // namespace gd
