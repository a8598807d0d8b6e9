#include "child/docker_api_child.h"

#include "child/http_get.h"

#include <boost/json.hpp>

#include <iostream>

namespace gd {

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
  const auto body = http_get("dockerd", args[0], "/info");
  if (!body) {
    std::cerr << body.error() << "\n";
    return 1;
  }
  const auto fields = docker_info_fields(*body);
  if (!fields) {
    std::cerr << "dockerd's answer to GET /info is not a JSON object\n";
    return 1;
  }
  std::cout << *fields << "\n";
  return 0;
}

}  // namespace gd
