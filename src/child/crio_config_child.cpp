#include "child/crio_config_child.h"

#include "child/http_get.h"
#include "util/text.h"

#include <iostream>

namespace gd {

std::optional<std::string> crio_config_lines(std::string_view body) {
  std::string lines;
  bool crio_runtime = false, in_runtime = false, in_handler = false;
  for (std::size_t start = 0; start < body.size();) {
    const std::size_t end = std::min(body.find('\n', start), body.size());
    const std::string_view line = trim(body.substr(start, end - start));
    start = end + 1;
    if (line.starts_with('[')) {
      in_runtime = line == "[crio.runtime]";
      in_handler = line.starts_with("[crio.runtime.runtimes.") && line.ends_with(']');
      crio_runtime = crio_runtime || in_runtime;
      if (in_runtime || in_handler) lines.append(line).append("\n");
      continue;
    }
    // A line of a multi-line array starts with its element, never with a bare key and '='.
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, equals));
    if ((in_runtime && key == "default_runtime") || (in_handler && (key == "runtime_path" || key == "runtime_type")))
      lines.append(line).append("\n");
  }
  if (!crio_runtime) return std::nullopt;
  return lines;
}

int crio_config_child(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::cerr << "usage: crio-config SOCKET\n";
    return 2;
  }
  const auto body = http_get("crio", args[0], "/config");
  if (!body) {
    std::cerr << body.error() << "\n";
    return 1;
  }
  const auto lines = crio_config_lines(*body);
  if (!lines) {
    std::cerr << "crio's answer to GET /config has no [crio.runtime] table\n";
    return 1;
  }
  std::cout << *lines;
  return 0;
}

}  // namespace gd
